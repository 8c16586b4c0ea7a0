"""Whether a valid resume value ends the suspend now, or is only recorded (an ask, a quorum vote)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from waitgate.identity import Caller
from waitgate.records import InterruptRecord
from waitgate.service.event_log import EventEntry


@dataclass(frozen=True)
class Decision:
    resolved: bool
    resume_value: Any
    record: InterruptRecord  # the interrupt with what this answer adds (votes, asks)
    events: tuple[EventEntry, ...] = ()  # debug events for what did not resolve


def decide(record: InterruptRecord, resume_value: Any, caller: Caller, now: str) -> Decision:
    if record.kind == "approval" and resume_value.get("action") == "ask":
        return _ask(record, resume_value, caller, now)
    return Decision(resolved=True, resume_value=resume_value, record=record)


def _ask(record: InterruptRecord, resume_value: Any, caller: Caller, now: str) -> Decision:
    """`ask` never exits the suspend: the question is kept and shown on inspect."""
    ask = {"principal": caller.principal, "askedAt": now, **resume_value}
    updated = replace(record, asks=(*record.asks, ask), version=record.version + 1)
    event: EventEntry = (
        "interrupt.asked",
        {"nodeId": record.node_id, "interruptId": record.interrupt_id, "ask": ask},
        record.node_id,
        "debug",
    )
    return Decision(resolved=False, resume_value=None, record=updated, events=(event,))
