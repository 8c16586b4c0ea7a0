"""Resolve and mint under an Idempotency-Key.

A resolve's answer is committed in the resolution's own transaction.

A first resolve costs one read (snapshot, interrupt and key record in one BatchGetItem) and one
TransactWriteItems; a replay costs the read alone. Two requests with the same key at once: one
commits, the other's transaction fails on the key record, re-reads, and replays the first answer —
the same key is never "in flight" longer than one transaction.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from waitgate.answers import Answer, json_answer
from waitgate.errors import ConcurrentUpdateError, WaitgateError
from waitgate.ports import InterruptStore
from waitgate.records import IdempotencyRef, RunRef

if TYPE_CHECKING:
    from waitgate.service.mint import MintDependencies, MintRequest
from waitgate.service.idempotency import refusal_to_keep, replay, stored
from waitgate.service.optimistic import retry_on_conflict
from waitgate.service.resolve import (
    ResolveCommand,
    ResolveDependencies,
    ResolveOutcome,
    ResolvePlan,
    after_commit,
    pending_record,
    plan_resolve,
    resolve_interrupt,
)


def outcome_answer(outcome: ResolveOutcome) -> Answer:
    return json_answer(200 if outcome.status == "resolved" else 202, outcome.to_json())


def resolve_answer(command: ResolveCommand, ref: IdempotencyRef | None, deps: ResolveDependencies) -> Answer:
    """The answer to a resolve request, with or without an Idempotency-Key."""
    if ref is None:
        return outcome_answer(resolve_interrupt(command, deps))

    def attempt() -> tuple[Answer, ResolvePlan | None]:
        view = deps.store.load(command.run, command.node_id, ref)
        now = deps.clock.now()
        earlier = replay(view.answer, ref, now) if view.answer else None
        if earlier is not None:
            return earlier, None
        try:
            plan = plan_resolve(view, command, deps)
        except WaitgateError as error:
            return _kept_refusal(error, ref, deps.store, now), None
        answer = outcome_answer(plan.outcome())
        deps.store.commit(replace(plan.change, answer=(ref, stored(ref, answer, now))))
        return answer, plan

    answer, committed = retry_on_conflict(attempt, "interrupt")
    if committed is not None:
        after_commit(committed, deps)
    return answer


def mint_answer(
    run: RunRef, node_id: str, request: MintRequest, ref: IdempotencyRef | None, deps: MintDependencies
) -> Answer:
    """201 {token, url, expiresAt}; under a key, the same link again (one read and one put first,
    one read on a replay). The stored answer holds the token: it lives in the run's own encrypted
    partition, readable only by this stack's functions, and expires with the key after 24 h."""
    from waitgate.service.mint import link_for, mint_interrupt_token, ttl_links  # not on a resolve's path

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
            return _kept_refusal(error, ref, deps.store, now)
        link = link_for(
            record, request.intent, request.sub, deps.keyring, now, ttl_links(request, deps.links)
        )
        return _saved(json_answer(201, link.to_json()), ref, deps.store, now)

    return retry_on_conflict(attempt, "key")


def _kept_refusal(error: WaitgateError, ref: IdempotencyRef, store: InterruptStore, now: datetime) -> Answer:
    """A state refusal (409, 410) kept as the key's answer. A refusal of the request itself (400, 403,
    404) is raised again: a corrected retry may succeed."""
    refusal = refusal_to_keep(error)
    if refusal is None:
        raise error
    return _saved(refusal, ref, store, now)


def _saved(answer: Answer, ref: IdempotencyRef, store: InterruptStore, now: datetime) -> Answer:
    """The answer, kept as the key's; a conflict if the same key was answered meanwhile (replay that)."""
    if not store.save_answer(ref, stored(ref, answer, now)):
        raise ConcurrentUpdateError("The key was answered meanwhile.")
    return answer
