"""What a signed token lets its holder do, checked in the profile's order, on the one resolve path.

Order: shape/alg/kid/MAC (401) -> expiry (410) -> intent (403) -> the request body (400/413/415) ->
interrupt and run state (404, 409, 410 past the deadline). A token's `sub` is the caller; a token
without one (a webhook's) answers as `token:<jti>`. The token itself is never logged or echoed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from waitgate.ports import Clock, InterruptStore, Telemetry
from waitgate.run.answers import Answer
from waitgate.run.identity import Caller
from waitgate.run.records import IdempotencyRef, RunRef, check_node_id
from waitgate.run.telemetry import Correlation, NoTelemetry
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_answer
from waitgate.tokens import Intent, KeySource, TokenClaims, require_intent, verify


@dataclass(frozen=True)
class TokenDependencies:
    """What reading an interrupt by token needs: the store, the keyring and the clock."""

    store: InterruptStore
    keyring: KeySource
    clock: Clock
    telemetry: Telemetry = field(default_factory=NoTelemetry)


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


KeyFor = Callable[[Caller, Mapping[str, Any]], IdempotencyRef | None]


def resolve_by_token(
    token: str, read_body: Callable[[], Any], keyring: KeySource, deps: ResolveDependencies, key_for: KeyFor
) -> Answer:
    """The token is checked before the body is read: a refused token learns nothing of body rules.
    Its Idempotency-Key scope is the token (its jti), so two links never collide."""
    claims = verified_claims(token, "resolve", keyring, deps.clock)
    deps.telemetry.correlate(correlation_of(claims))
    command = token_command(claims, read_body())
    ref = key_for(command.caller, {"interruptId": claims.interrupt_id, "resumeValue": command.resume_value})
    return resolve_answer(command, ref, deps)
