"""The `requestState` of waitgate's multi-round tool calls: the SDK's boundary, waitgate's seal.

The SDK's RequestStateBoundary (mcp.server.request_state) checks every echoed state's envelope (its
expiry, the method, the tool and a digest of its arguments, the principal) and hands the tool only
the state it minted; the codec it seals with is `KeyringStateCodec`, the host's token keyring
(waitgate.tokens.request_states), so a state survives restarts, cold starts and other instances, and
the principal is the caller's tenant and subject (`bound_principal`): another tenant's client, or
another user, cannot use it. That a state is used once is the tool's (service.agent_rounds).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.context import ServerRequestContext
from mcp.server.request_state import InvalidRequestState, RequestStateSecurity

from waitgate.ports import Clock
from waitgate.tokens import KeyringError, KeySource
from waitgate.tokens.request_states import RequestStateRefused, open_request_state, seal_request_state

ROUND_SECONDS = 3600  # how long a person has on the page before the client's retry is refused


class KeyringStateCodec:
    """The SDK's RequestStateCodec on the host's token keyring (fetched on first use)."""

    def __init__(self, keyring: Callable[[], KeySource], clock: Clock, ttl: int = ROUND_SECONDS) -> None:
        self._keyring = keyring
        self._clock = clock
        self._ttl = ttl

    def seal(self, payload: bytes) -> str:
        expires_at = int(self._clock.now().timestamp()) + self._ttl
        return seal_request_state(payload, expires_at, self._keyring())

    def unseal(self, token: str) -> bytes:
        try:
            return open_request_state(token, int(self._clock.now().timestamp()), self._keyring())
        except RequestStateRefused as refused:
            raise InvalidRequestState(str(refused)) from None
        except KeyringError:  # fails closed: a state nobody can check is refused
            raise InvalidRequestState("keyring") from None


def bound_principal(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """Whose state it is: the verified token's issuer, subject and tenant claim."""
    from waitgate.wiring.settings import settings

    token = get_access_token()
    if token is None or not token.claims:
        return None
    claims = token.claims
    tenant = claims.get(settings().tenant_claim)
    return json.dumps([claims.get("iss"), claims.get("sub"), tenant], separators=(",", ":"))


def state_security(keyring: Callable[[], KeySource], clock: Clock) -> RequestStateSecurity:
    return RequestStateSecurity(
        codec=KeyringStateCodec(keyring, clock), ttl=ROUND_SECONDS, bind_principal=bound_principal
    )
