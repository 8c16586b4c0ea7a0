"""Matching webhook events to waits, from either side (docs/webhooks.md, "Early events and races").

A delivery is kept first, then the waits indexed under its correlation are looked up; a wait is
indexed with its own commit, then the kept events are looked up. Each side writes before it reads
(consistent reads), so of an event and a wait that race, at least one side sees the other; both may,
and then the resolution's one transaction decides: it is conditioned on the interrupt's version and on
the event being still unmatched, so the event resolves one wait once, and the wait is resolved once.

Every resolution goes through the one resolve path (`resolve_interrupt`): `resumeSchema` applied, the
workflow answered once. A value the interrupt refuses is noted on the event (operators list it) and
the interrupt stays pending.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from waitgate.errors import (
    GuardFailedError,
    InterruptAlreadyResolvedError,
    InterruptExpiredError,
    NotFoundError,
    PayloadTooLargeError,
    ValidationFailedError,
)
from waitgate.payloads.correlation import awaited_event
from waitgate.ports import Clock
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.identity import Caller
from waitgate.run.records import GuardedItem, InterruptRecord
from waitgate.run.webhook_records import KeptEvent, WaitingInterrupt
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_interrupt
from waitgate.webhooks.matching import correlation_in, correlation_key, lookup_member, matches, member_key
from waitgate.webhooks.ports import ExternalEvents

logger = logging.getLogger(__name__)
MATCHED_EVENT = "webhook.matched"
EVENT_GUARD = "webhook-event"
Resolution = Literal["resolved", "taken", "refused", "not-pending"]


@dataclass(frozen=True)
class MatchDependencies:
    events: ExternalEvents
    resolve: ResolveDependencies

    @property
    def clock(self) -> Clock:
        return self.resolve.clock


def resolve_waiting(event: KeptEvent, deps: MatchDependencies) -> tuple[WaitingInterrupt, ...]:
    """Resolve the waits the event matches now: the first one (by when it was asked), or each one for
    a source whose events may satisfy several. The waits it resolved."""
    candidates: dict[tuple[object, str], WaitingInterrupt] = {}
    for names in deps.events.shapes(event.tenant_id, event.event_type):
        correlation = correlation_in(event.data, names)
        if correlation is None:
            continue
        for waiting in deps.events.waiting(correlation_key(event.tenant_id, event.event_type, correlation)):
            if waiting.run.tenant_id == event.tenant_id:
                candidates[(waiting.run, waiting.node_id)] = waiting
    resolved: list[WaitingInterrupt] = []
    for waiting in sorted(candidates.values(), key=lambda w: (w.requested_at, w.run.run_id, w.node_id)):
        outcome = resolve_with(event, waiting, deps, early=False)
        if outcome == "resolved":
            resolved.append(waiting)
        if (outcome == "resolved" and not event.match_many) or outcome == "taken":
            break
    return tuple(resolved)


def resolve_early(record: InterruptRecord, deps: MatchDependencies) -> KeptEvent | None:
    """A wait just committed: resolve it at once with an event kept before it (the oldest that
    matches), if there is one. The event that resolved it, or None."""
    awaited = awaited_event(record.payload)
    if awaited is None:
        return None
    event_type, correlation = awaited
    tenant = record.run.tenant_id
    now = int(deps.clock.now().timestamp())
    waiting = WaitingInterrupt(record.run, record.node_id, record.interrupt_id, record.requested_at)
    for event in deps.events.kept_with(member_key(tenant, event_type, *lookup_member(correlation))):
        fits = event.tenant_id == tenant and event.event_type == event_type and event.usable
        if not fits or event.expires_at_epoch <= now or not matches(correlation, event.data):
            continue
        outcome = resolve_with(event, waiting, deps, early=True)
        if outcome == "resolved":
            return event
        if outcome == "not-pending":
            return None
    return None


def resolve_with(
    event: KeptEvent, waiting: WaitingInterrupt, deps: MatchDependencies, early: bool
) -> Resolution:
    """One wait resolved with the event through the one resolve path, the event's status in the same
    transaction: `taken` when another wait took the event first, `not-pending` when the wait ended."""
    now = rfc3339(deps.clock.now())
    command = ResolveCommand(
        run=waiting.run,
        node_id=waiting.node_id,
        resume_value=event.resume_value,
        caller=Caller(principal=f"webhook:{event.ref.source}", tenant_id=event.tenant_id, via="webhook"),
        interrupt_id=waiting.interrupt_id,
        guarded=(_consumed(event, waiting, now),),
        note=EventEntry(MATCHED_EVENT, _note(event, waiting, early), waiting.node_id, "debug"),
    )
    try:
        resolve_interrupt(command, deps.resolve)
    except GuardFailedError:
        return "taken"
    except (InterruptAlreadyResolvedError, InterruptExpiredError, NotFoundError):
        return "not-pending"
    except (ValidationFailedError, PayloadTooLargeError) as refused:
        refusal = {
            "runId": waiting.run.run_id,
            "nodeId": waiting.node_id,
            "interruptId": waiting.interrupt_id,
            "code": refused.code,
            "detail": refused.detail,
            "at": now,
            **({"path": refused.extensions["path"]} if "path" in refused.extensions else {}),
        }
        deps.events.record_refusal(event.ref, refusal)
        logger.warning("webhook event refused by the wait", extra={"source": event.ref.source, **refusal})
        return "refused"
    logger.info(
        "webhook event resolved a wait" + (": the event came early" if early else ""),
        extra={"source": event.ref.source, "eventId": event.ref.event_id, "runId": waiting.run.run_id},
    )
    return "resolved"


def _consumed(event: KeptEvent, waiting: WaitingInterrupt, now: str) -> GuardedItem:
    """The event still unmatched (or one that may satisfy several), now matched by this wait."""
    expect = {"matchMany": "true"} if event.match_many else {"status": "unmatched"}
    update = {
        "status": "matched",
        "matchedRunId": waiting.run.run_id,
        "matchedNodeId": waiting.node_id,
        "matchedInterruptId": waiting.interrupt_id,
        "matchedAt": now,
    }
    return GuardedItem(subject=event.ref, label=EVENT_GUARD, expect=expect, update=update)


def _note(event: KeptEvent, waiting: WaitingInterrupt, early: bool) -> dict[str, object]:
    return {
        "nodeId": waiting.node_id,
        "interruptId": waiting.interrupt_id,
        "source": event.ref.source,
        "eventId": event.ref.event_id,
        "deliveryId": event.delivery_id,
        "early": early,
    }
