"""mintInterruptToken: a signed link to one pending interrupt, for a webhook or a person.

`expiresAt` = min(now + lifetime, the interrupt's deadline), rounded down to the second; the
lifetime is `ttlSeconds` when given, else the host's TOKEN_LIFETIME_SECONDS.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from waitgate.errors import ValidationFailedError, WaitgateError
from waitgate.ports import Clock, InterruptStore
from waitgate.run.answerable import pending_record
from waitgate.run.answers import Answer, json_answer
from waitgate.run.clock import parse_rfc3339
from waitgate.run.identity import refuse_own_namespace
from waitgate.run.kept_answers import replay
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import IdempotencyRef, InterruptRecord, RunRef
from waitgate.run.size_limits import MAX_PRINCIPAL_BYTES, check_principal
from waitgate.service._kept_answers import kept_refusal, saved_answer
from waitgate.tokens import Intent, KeySource, TokenClaims, expires_at_for, mint
from waitgate.tokens.claims import format_expires_at

MAX_TTL_SECONDS = 7 * 24 * 3600
MAX_SUB_LENGTH = MAX_PRINCIPAL_BYTES  # characters; and as many bytes of UTF-8
_MEMBERS = frozenset({"intent", "sub", "ttlSeconds"})


@dataclass(frozen=True)
class MintRequest:
    intent: Intent
    sub: str | None = None
    ttl_seconds: int | None = None


@dataclass(frozen=True)
class LinkSettings:
    """The host's link configuration: default lifetime and the base URL links start with."""

    lifetime: timedelta
    public_base_url: str


@dataclass(frozen=True)
class MintDependencies:
    store: InterruptStore
    keyring: KeySource
    clock: Clock
    links: LinkSettings


@dataclass(frozen=True)
class MintedLink:
    token: str
    url: str
    expires_at: str

    def to_json(self) -> dict[str, str]:
        return {"token": self.token, "url": self.url, "expiresAt": self.expires_at}


def parse_mint_request(body: Any) -> MintRequest:
    """`{intent, sub?, ttlSeconds?}`, closed; 400 validation_error naming the member otherwise."""
    if not isinstance(body, dict) or not body.keys() <= _MEMBERS or "intent" not in body:
        raise ValidationFailedError("The body must be {intent, sub?, ttlSeconds?}.", path="$")
    intent, sub, ttl = body["intent"], body.get("sub"), body.get("ttlSeconds")
    if intent not in ("resolve", "inspect"):  # a hashable-or-not value compared, never hashed
        raise ValidationFailedError("intent must be 'resolve' or 'inspect'.", path="intent")
    if sub is not None and (not isinstance(sub, str) or not 0 < len(sub) <= MAX_SUB_LENGTH):
        raise ValidationFailedError(f"sub must be a string of 1..{MAX_SUB_LENGTH} characters.", path="sub")
    if sub is not None:
        check_principal(sub, bearer=False)
        refuse_own_namespace(sub, bearer=False)
    if ttl is not None and (type(ttl) is not int or not 0 < ttl <= MAX_TTL_SECONDS):
        raise ValidationFailedError(f"ttlSeconds must be an integer 1..{MAX_TTL_SECONDS}.", path="ttlSeconds")
    return MintRequest(intent=intent, sub=sub, ttl_seconds=ttl)


def mint_interrupt_token(
    run: RunRef, node_id: str, request: MintRequest, deps: MintDependencies
) -> MintedLink:
    """A link to the node's pending interrupt: 404 no such run or node, 409 resolved, cancelled,
    completed or past its deadline."""
    record = pending_record(deps.store.load(run, node_id), deps.clock)
    return link_for(
        record, request.intent, request.sub, deps.keyring, deps.clock.now(), ttl_links(request, deps.links)
    )


def ttl_links(request: MintRequest, links: LinkSettings) -> LinkSettings:
    """The host's link settings, with the request's own lifetime when it names one."""
    if request.ttl_seconds is None:
        return links
    return LinkSettings(timedelta(seconds=request.ttl_seconds), links.public_base_url)


def link_for(
    record: InterruptRecord,
    intent: Intent,
    sub: str | None,
    keyring: KeySource,
    now: datetime,
    links: LinkSettings,
) -> MintedLink:
    """A token for exactly this interrupt (its id is in the claims), never outliving its deadline."""
    deadline = parse_rfc3339(record.deadline) if record.deadline else None
    claims = TokenClaims(
        interrupt_id=record.interrupt_id,
        run_id=record.run.run_id,
        node_id=record.node_id,
        tenant_id=record.run.tenant_id,
        intent=intent,
        expires_at=expires_at_for(now, links.lifetime, deadline),
        sub=sub,
    )
    token = mint(claims, keyring)
    url = f"{links.public_base_url}/interrupts/{token}"
    return MintedLink(token=token, url=url, expires_at=format_expires_at(claims.expires_at))


def mint_answer(
    run: RunRef, node_id: str, request: MintRequest, ref: IdempotencyRef | None, deps: MintDependencies
) -> Answer:
    """201 {token, url, expiresAt}; under a key, the same link again (one read and one put first,
    one read on a replay). The stored answer holds the token: it lives in the table's encrypted key
    record, readable only by this stack's functions, and expires with the key after 24 h."""
    if ref is None:
        return json_answer(201, mint_interrupt_token(run, node_id, request, deps).to_json())

    def attempt() -> Answer:
        view = deps.store.load(run, node_id, ref)
        now = deps.clock.now()
        earlier = replay(view.answer, ref, now) if view.answer else None
        if earlier is not None:
            return earlier
        try:
            record = pending_record(view, deps.clock)
        except WaitgateError as error:
            return kept_refusal(error, ref, deps.store, now)
        link = link_for(
            record, request.intent, request.sub, deps.keyring, now, ttl_links(request, deps.links)
        )
        return saved_answer(json_answer(201, link.to_json()), ref, deps.store, now)

    return retry_on_conflict(attempt, "key")
