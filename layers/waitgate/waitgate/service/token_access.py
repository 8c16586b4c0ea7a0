"""What a signed token lets its holder do, checked in the profile's order, on the one resolve path.

Order, as a handler's lines: `authorized` — shape/alg/kid/MAC (401) -> expiry (410) -> intent (403) —,
then it reads the request body (400/413/415), then `resolve_by_token` — interrupt and run state (404,
409, 410 past the deadline), who may decide (403), the value (400). A token's `sub` is the caller; a token
without one (a webhook's) answers as `token:<jti>`. The token itself is never logged or echoed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from waitgate.approval.approver_config import ApprovalConfig
from waitgate.ports import Clock, Directory, InterruptStore, Telemetry
from waitgate.run.answers import Answer
from waitgate.run.identity import Caller
from waitgate.run.records import IdempotencyRef, RunRef, check_node_id
from waitgate.run.telemetry import Correlation, NoTelemetry
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_answer
from waitgate.tokens import Intent, KeySource, TokenClaims, require_intent, verify


@dataclass(frozen=True)
class TokenDependencies:
    """What reading an interrupt by token needs: the store, the keyring and the clock; and, for the
    page to say whom its recipient decides for as a delegate, the directory (None: it says nothing)."""

    store: InterruptStore
    keyring: KeySource
    clock: Clock
    telemetry: Telemetry = field(default_factory=NoTelemetry)
    directory: Directory | None = None
    approval: ApprovalConfig = field(default_factory=ApprovalConfig)


def verified_claims(token: str, intent: Intent, keyring: KeySource, clock: Clock) -> TokenClaims:
    """The token's claims if it allows `intent` now; 401, 410 or 403 otherwise, in that order."""
    claims = verify(token, keyring, clock.now())
    require_intent(claims, intent)
    return claims


def correlation_of(claims: TokenClaims) -> Correlation:
    """The ids a verified token names (never the token): what the request's log lines carry."""
    return Correlation(claims.run_id, claims.node_id, claims.interrupt_id, tenant_id=claims.tenant_id)


def token_caller(claims: TokenClaims) -> Caller:
    principal = claims.sub or f"token:{claims.jti}"
    return Caller(principal=principal, tenant_id=claims.tenant_id, via="token", token_id=claims.jti)


def token_command(claims: TokenClaims, resume_value: Any) -> ResolveCommand:
    """A resolve pinned to the token's interrupt (a later interrupt at the same node is not its own)."""
    return ResolveCommand(
        run=RunRef.parse(claims.tenant_id, claims.run_id),
        node_id=check_node_id(claims.node_id),
        resume_value=resume_value,
        caller=token_caller(claims),
        interrupt_id=claims.interrupt_id,
        surface="token",
    )


def authorized(token: str, keyring: KeySource, deps: ResolveDependencies) -> TokenClaims:
    """The claims of a token that may resolve now; 401, 410 or 403 otherwise. Its caller checks it
    before reading the request body: a refused token learns nothing of the body rules."""
    claims = verified_claims(token, "resolve", keyring, deps.clock)
    deps.telemetry.correlate(correlation_of(claims))
    return claims


def token_request(claims: TokenClaims, resume_value: Any) -> dict[str, Any]:
    """What a resolve by token asks, as its Idempotency-Key's fingerprint covers it."""
    return {"interruptId": claims.interrupt_id, "resumeValue": resume_value}


def resolve_by_token(
    claims: TokenClaims, resume_value: Any, ref: IdempotencyRef | None, deps: ResolveDependencies
) -> Answer:
    """The interrupt's state (404, 409, 410), who may decide (403), the value (400) — the one resolve
    path. The Idempotency-Key's scope is the token (its jti), so two links never collide."""
    return resolve_answer(token_command(claims, resume_value), ref, deps)
