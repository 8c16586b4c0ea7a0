"""The caller of the run-scoped surface, from the claims API Gateway's JWT authorizer passed on.

The authorizer checked issuer, audience, signature and expiry; the handler re-checks scope and tenant
(defence in depth: the local stack has no API Gateway).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from waitgate.errors import ForbiddenError, UnauthorizedError, ValidationFailedError
from waitgate.run.identity import Caller, refuse_own_namespace
from waitgate.run.records import DEFAULT_TENANT, RunRef
from waitgate.run.size_limits import check_principal

if TYPE_CHECKING:
    from waitgate.http.router import HttpApp


def jwt_claims(event: Mapping[str, Any]) -> Mapping[str, Any]:
    authorizer = (event.get("requestContext") or {}).get("authorizer") or {}
    claims = (authorizer.get("jwt") or {}).get("claims")
    if not isinstance(claims, Mapping) or not claims.get("sub"):
        raise UnauthorizedError("A valid bearer token is required.")
    return claims


def scopes_of(claims: Mapping[str, Any]) -> frozenset[str]:
    """The granted scopes, read as OAuth and API Gateway read them.

    `scope` (or `scp`) is a space-delimited list of scope tokens (RFC 6749 §3.3): a comma is a legal
    character inside a token, so `"runs:read,approvals:respond"` is one scope that grants neither.
    `scp` may be a JSON array, which API Gateway's JWT authorizer hands the function as `"[a b]"`.
    """
    raw = claims.get("scope") or claims.get("scp") or ""
    if not isinstance(raw, str):
        return frozenset(str(part) for part in raw)
    if raw.startswith("[") and raw.endswith("]"):
        raw = raw[1:-1]  # an array claim as the authorizer renders it
    return frozenset(raw.split())


def caller_from_jwt(
    event: Mapping[str, Any], *, required_scope: str | tuple[str, ...], tenant_claim: str
) -> Caller:
    """The caller, who must hold `required_scope` (a tuple: any one of them)."""
    claims = jwt_claims(event)
    scopes = scopes_of(claims)
    wanted = (required_scope,) if isinstance(required_scope, str) else required_scope
    if not scopes & set(wanted):
        raise ForbiddenError(f"The bearer token lacks the scope {' or '.join(wanted)}.")
    check_principal(str(claims["sub"]), bearer=True)
    refuse_own_namespace(str(claims["sub"]), bearer=True)
    tenant = str(claims.get(tenant_claim) or DEFAULT_TENANT)
    try:
        RunRef.parse(tenant, "probe")
    except ValidationFailedError as error:
        raise ForbiddenError("The bearer token names a tenant this host cannot serve.") from error
    return Caller(principal=str(claims["sub"]), tenant_id=tenant, via="jwt", scopes=scopes)


def bearer_caller(app: HttpApp, scope: str | tuple[str, ...]) -> Caller:
    """The current request's bearer-JWT caller, who must hold `scope` (a tuple: any of them; tenant
    from the configured claim)."""
    from waitgate.wiring.settings import settings

    return caller_from_jwt(
        app.current_event.raw_event, required_scope=scope, tenant_claim=settings().tenant_claim
    )
