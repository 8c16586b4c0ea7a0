"""The interrupt the eligibility tests decide on: one pending at run-1's node Gate of tenant acme,
its kind's payload with these `data` members (who may answer), and the votes cast so far."""

from __future__ import annotations

from typing import Any

from waitgate.run.records import InterruptRecord, RunRef


def record(votes: tuple[dict[str, Any], ...] = (), kind: str = "approval", **data: Any) -> InterruptRecord:
    return InterruptRecord(
        run=RunRef("acme", "run-1"),
        node_id="Gate",
        interrupt_id="i-1",
        kind=kind,
        key="k",
        payload={"kind": kind, "key": "k", "data": data},
        task_token="t",
        requested_at="2026-11-30T09:00:00.000Z",
        votes=votes,
    )
