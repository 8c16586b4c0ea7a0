"""The issuer's OpenID Connect discovery document (`<issuer>/.well-known/openid-configuration`): where
the inbox page sends a person to sign in, and where their browser exchanges the code for a token."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

TIMEOUT_SECONDS = 3


class DiscoveryFailedError(Exception):
    """The document could not be read, or does not name this issuer's endpoints."""


def endpoints_of(issuer: str) -> tuple[str, str]:
    """(authorization_endpoint, token_endpoint) of `issuer`, from its own discovery document."""
    if not issuer.startswith(("https://", "http://")):
        raise DiscoveryFailedError("the JWT issuer is not an http(s) URL")
    url = issuer.rstrip("/") + "/.well-known/openid-configuration"
    request = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310 (http(s) only)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:  # noqa: S310 (http(s) only)
            document: Any = json.loads(answer.read(256 * 1024))
    except (urllib.error.URLError, TimeoutError, OSError, ValueError) as error:
        raise DiscoveryFailedError(
            f"the issuer's discovery document could not be read ({type(error).__name__})"
        ) from error
    if not isinstance(document, dict) or document.get("issuer", "").rstrip("/") != issuer.rstrip("/"):
        raise DiscoveryFailedError("the discovery document names another issuer")
    authorize, token = document.get("authorization_endpoint"), document.get("token_endpoint")
    if not (isinstance(authorize, str) and isinstance(token, str) and authorize and token):
        raise DiscoveryFailedError("the discovery document names no authorization or token endpoint")
    return authorize, token
