"""Which stream records ask delete_schedules to clean up, and which schedule names an interrupt has."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from waitgate.adapters.dynamodb_items import interrupt_item
from waitgate.adapters.dynamodb_stream import ended_interrupt
from waitgate.adapters.scheduler_deadlines import schedule_names
from waitgate.run.records import InterruptRecord, RunRef

PENDING = InterruptRecord(
    run=RunRef("default", "run-1"),
    node_id="Gate",
    interrupt_id="01ABC",
    kind="approval",
    key="ship",
    payload={"kind": "approval", "key": "ship", "data": {}},
    task_token="token",
    requested_at="2026-11-30T10:00:00.000Z",
    deadline="2026-11-30T22:00:00.000Z",
    escalation={"steps": [{"afterMs": 1000, "remind": True}, {"afterMs": 2000, "remind": True}]},
)


def change(old: InterruptRecord | None, new: InterruptRecord) -> dict[str, Any]:
    image = interrupt_item(new)
    return {
        "Keys": {"pk": image["pk"], "sk": image["sk"]},
        "OldImage": interrupt_item(old) if old else None,
        "NewImage": image,
    }


def ending(status: str, **changes: Any) -> InterruptRecord:
    return replace(PENDING, status=status, version=2, **changes)


def test_an_interrupt_that_ends_has_all_its_schedules_named() -> None:
    for status in ("resolved", "expired", "cancelled"):
        ended = ended_interrupt(change(PENDING, ending(status)))
        assert ended is not None and ended.interrupt_id == "01ABC"
        assert schedule_names(ended) == ["expire-01ABC", "step0-01ABC", "step1-01ABC"]


def test_records_that_end_nothing_with_schedules_are_left_alone() -> None:
    assert ended_interrupt(change(None, PENDING)) is None  # requested
    assert ended_interrupt(change(PENDING, ending("pending", escalated=(0,)))) is None  # a step fired
    assert ended_interrupt(change(ending("resolved"), ending("resolved", delivered_at="x"))) is None
    assert ended_interrupt(change(PENDING, ending("resolved", deadline=None, escalation=None))) is None
    other = ending("resolved", interrupt_id="01XYZ")
    assert ended_interrupt(change(PENDING, other)) is None  # not the interrupt the old image held
    run_item = change(PENDING, ending("resolved"))
    run_item["Keys"]["sk"] = {"S": "RUN"}
    assert ended_interrupt(run_item) is None
