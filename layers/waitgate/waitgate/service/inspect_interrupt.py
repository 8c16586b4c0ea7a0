"""inspectInterruptByToken: the InterruptPayload a token names, while it may still be answered.

Reading never writes: no vote, no event, no status change, however often a link is opened (mail
scanners follow links and even run their scripts).
"""

from __future__ import annotations

from dataclasses import dataclass

from waitgate.errors import WaitgateError
from waitgate.run.answerable import pending_record
from waitgate.run.records import InterruptRecord, JSONObject
from waitgate.service.token_access import (
    TokenDependencies,
    correlation_of,
    token_caller,
    token_command,
    verified_claims,
)
from waitgate.tokens import TokenClaims, authentic_claims
from waitgate.tokens.claims import format_expires_at


@dataclass(frozen=True)
class InterruptView:
    """The pending interrupt and the token that showed it (its intent decides what a page offers)."""

    record: InterruptRecord
    claims: TokenClaims

    @property
    def payload(self) -> JSONObject:
        """The InterruptPayload, exactly as the workflow sent it."""
        return self.record.payload

    @property
    def may_resolve(self) -> bool:
        return self.claims.intent == "resolve"

    @property
    def expires_at(self) -> str:
        return format_expires_at(self.claims.expires_at)

    @property
    def principal(self) -> str:
        """Who the link decides as: its token's `sub`, or `token:<jti>` for a token without one."""
        return token_caller(self.claims).principal


def ended_by_token(token: str, deps: TokenDependencies) -> InterruptView | None:
    """The interrupt a token was minted for once it no longer waits (what its page says came of it);
    None while it waits, or when the node now holds another interrupt or none. Checks the token as
    `inspect_by_token` does; reads, never writes."""
    claims = verified_claims(token, "inspect", deps.keyring, deps.clock)
    command = token_command(claims, None)
    record = deps.store.load(command.run, command.node_id).interrupt
    if record is None or record.interrupt_id != claims.interrupt_id or record.status == "pending":
        return None
    return InterruptView(record, claims)


@dataclass(frozen=True)
class ExpiredLink:
    """What an expired link (or a link to an interrupt past its deadline) may still tell its holder:
    the interrupt it was minted for, as the node now holds it (None: the node holds another or none)."""

    claims: TokenClaims
    record: InterruptRecord | None
    waits: bool = False  # it may still be answered now (pending, before its deadline, its run going on)

    @property
    def decided(self) -> InterruptRecord | None:
        """The interrupt, once resolved: what its page says was decided."""
        return self.record if self.record is not None and self.record.status == "resolved" else None


def expired_link(token: str, deps: TokenDependencies) -> ExpiredLink:
    """The interrupt an authentic link names, however long ago it expired (401 for any other token).
    Reads, never writes; what it shows is what the link showed while it worked, and what came of it."""
    claims = authentic_claims(token, deps.keyring)
    deps.telemetry.correlate(correlation_of(claims))
    command = token_command(claims, None)
    view = deps.store.load(command.run, command.node_id)
    record = view.interrupt if view.snapshot is not None else None
    if record is None or record.interrupt_id != claims.interrupt_id:
        return ExpiredLink(claims, None)
    try:
        pending_record(view, deps.clock, interrupt_id=claims.interrupt_id, surface="token")
    except WaitgateError:
        return ExpiredLink(claims, record)
    return ExpiredLink(claims, record, waits=True)


def inspect_by_token(token: str, deps: TokenDependencies) -> InterruptView:
    claims = verified_claims(token, "inspect", deps.keyring, deps.clock)
    deps.telemetry.correlate(correlation_of(claims))
    command = token_command(claims, None)
    view = deps.store.load(command.run, command.node_id)
    record = pending_record(view, deps.clock, interrupt_id=claims.interrupt_id, surface="token")
    return InterruptView(record, claims)
