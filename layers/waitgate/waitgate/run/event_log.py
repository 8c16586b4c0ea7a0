"""Appending events to a run: each gets the run's next sequence number, in order."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from waitgate.run.records import EventMode, JSONObject, RunEvent, RunSnapshot


class EventEntry(NamedTuple):
    """An event before it has its sequence number."""

    type: str
    payload: JSONObject
    node_id: str | None
    mode: EventMode = "updates"


LEGACY_PREFIX_BY_KIND = {"approval": "approval", "clarification": "clarification"}


def append(
    snapshot: RunSnapshot,
    time: str,
    entries: list[EventEntry],
) -> tuple[RunSnapshot, tuple[RunEvent, ...]]:
    """The snapshot with its counter moved on, and the events numbered from where it stood."""
    events = tuple(
        RunEvent(
            seq=snapshot.next_seq + offset,
            type=kind,
            time=time,
            payload=payload,
            node_id=node_id,
            mode=mode,
        )
        for offset, (kind, payload, node_id, mode) in enumerate(entries)
    )
    return replace(snapshot, next_seq=snapshot.next_seq + len(events)), events


def with_legacy(event_type: str, kind: str, payload: JSONObject, node_id: str) -> list[EventEntry]:
    """interrupt.<verb>, and the legacy <kind>.<verb> with the same payload for approval/clarification."""
    verb = event_type.split(".", 1)[1]
    entries = [EventEntry(event_type, payload, node_id)]
    legacy_prefix = LEGACY_PREFIX_BY_KIND.get(kind)
    if legacy_prefix:
        entries.append(EventEntry(f"{legacy_prefix}.{verb}", payload, node_id))
    return entries
