"""The /inbox page's sign-in (docs/inbox.md): OpenID Connect authorization code + PKCE, from the
settings only InboxPageFunction's environment holds (OIDC_ISSUER, INBOX_*)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.page.inbox import SignIn


def inbox_sign_in() -> SignIn:
    """The /inbox page's sign-in: the endpoints as configured, else from the issuer's discovery
    document (read once per instance; a failed read is tried again on the next request)."""
    from waitgate.page.inbox import SignIn

    configured = settings()
    common = {
        "client_id": configured.inbox_client_id,
        "scope": configured.inbox_scopes,
        "authorize_parameters": configured.inbox_authorize_parameters,
        "tenant_claim": configured.tenant_claim,
    }
    if not configured.inbox_client_id:
        return SignIn(
            **common, problem="Sign-in is not configured on this host (InboxClientId, docs/inbox.md)."
        )
    authorize, token = configured.inbox_authorization_endpoint, configured.inbox_token_endpoint
    if not (authorize and token):
        from waitgate.adapters.oidc_discovery import DiscoveryFailedError

        try:
            found = _discovered(configured.oidc_issuer)
        except DiscoveryFailedError as error:
            return SignIn(**common, problem=f"Sign-in is unavailable: {error}")
        authorize, token = authorize or found[0], token or found[1]
    return SignIn(**common, authorization_endpoint=authorize, token_endpoint=token)


@lru_cache(maxsize=4)
def _discovered(issuer: str) -> tuple[str, str]:
    from waitgate.adapters.oidc_discovery import endpoints_of

    return endpoints_of(issuer)
