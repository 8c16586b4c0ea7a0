"""The reconciler's pure rules (waitgate.run.reconciliation): what is owed, from when, and which heal."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.run.clock import rfc3339
from waitgate.run.reconciliation import (
    SHARDS,
    Cancel,
    Defer,
    Expire,
    Leave,
    Notify,
    Redeliver,
    due_of,
    is_parked,
    names_anyone,
    needs_engine,
    plan,
    recheck_after,
    shard_of,
)
from waitgate.run.records import InterruptRecord, RunRef, RunSnapshot

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GRACE = timedelta(seconds=60)
PERIOD = timedelta(minutes=5)
RUN = RunRef("default", "run-1")
ARN = "arn:aws:states:us-east-1:123456789012:execution:waitgate-interrupt:run-1"
APPROVAL = {"kind": "approval", "key": "k", "data": {"title": "Ship?", "approversList": ["alice"]}}
PENDING = InterruptRecord(
    run=RUN,
    node_id="Gate",
    interrupt_id="01INTERRUPT1",
    kind="approval",
    key="k",
    payload=APPROVAL,
    task_token="token",
    requested_at=rfc3339(NOW - timedelta(minutes=10)),
    execution_arn=ARN,
)
RUNNING = RunSnapshot(RUN, "waiting-approval", 3, "Gate", "01INTERRUPT1", version_seen=3)


def at(delta: timedelta) -> str:
    return rfc3339(NOW + delta)


def test_a_pending_interrupt_is_due_from_its_request_then_from_its_next_check_or_its_deadline() -> None:
    assert due_of(PENDING) == PENDING.requested_at
    checked = replace(PENDING, check_at=at(timedelta(hours=1)))
    assert due_of(checked) == at(timedelta(hours=1))
    assert due_of(replace(checked, deadline=at(timedelta(minutes=20)))) == at(timedelta(minutes=20))


def test_an_ended_interrupt_is_owed_until_delivered_and_a_refused_delivery_is_parked() -> None:
    resolved = replace(PENDING, status="resolved", resolved_at=at(timedelta(0)), resume_value={})
    assert due_of(resolved) == at(timedelta(0))
    expired = replace(PENDING, status="expired", deadline=at(-timedelta(minutes=1)))
    assert due_of(expired) == at(-timedelta(minutes=1))
    delivered = replace(resolved, delivered_at=at(timedelta(seconds=1)), delivery_outcome="delivered")
    assert due_of(delivered) is None and not is_parked(delivered)
    for outcome in ("task-gone", "refused"):
        assert is_parked(replace(delivered, delivery_outcome=outcome))
    assert due_of(replace(PENDING, status="cancelled")) is None


@given(st.text(min_size=1, max_size=40))
def test_every_interrupt_has_one_stable_shard_of_the_few(interrupt_id: str) -> None:
    assert 0 <= shard_of(interrupt_id) < SHARDS
    assert shard_of(interrupt_id) == shard_of(interrupt_id)


def test_the_shards_spread_interrupts_evenly() -> None:
    counts = [0] * SHARDS
    for n in range(8000):
        counts[shard_of(f"01ID{n:022d}")] += 1
    assert min(counts) > 800 and max(counts) < 1200


def test_resolved_but_not_delivered_is_delivered_again() -> None:
    resolved = replace(PENDING, status="resolved", resolved_at=at(-GRACE), resume_value={"ok": 1})
    assert plan(resolved, RUNNING, NOW, None, GRACE, PERIOD) == Redeliver()
    delivered = replace(resolved, delivered_at=at(timedelta(0)), delivery_outcome="delivered")
    assert plan(delivered, RUNNING, NOW, None, GRACE, PERIOD) == Leave()
    parked = replace(delivered, delivery_outcome="refused")
    assert plan(parked, RUNNING, NOW, None, GRACE, PERIOD) == Leave()


def test_past_its_deadline_and_pending_is_expired() -> None:
    late = replace(PENDING, deadline=at(-timedelta(seconds=1)), noticed_at=PENDING.requested_at)
    assert plan(late, RUNNING, NOW, "running", GRACE, PERIOD) == Expire()


@pytest.mark.parametrize(
    ("engine", "status"),
    [
        ("SUCCEEDED", "completed"),
        ("FAILED", "failed"),
        ("TIMED_OUT", "failed"),
        ("ABORTED", "cancelled"),
        ("STOPPED", "cancelled"),
        ("GONE", "failed"),
    ],
)
def test_pending_while_its_execution_ended_cancels_as_the_run_lifecycle_would(
    engine: str, status: str
) -> None:
    late = replace(PENDING, deadline=at(-timedelta(minutes=1)))
    assert plan(late, RUNNING, NOW, engine, GRACE, PERIOD) == Cancel(status, engine)  # type: ignore[arg-type]


def test_pending_on_a_run_already_ended_is_cancelled_without_asking_the_engine() -> None:
    ended = replace(RUNNING, status="failed")
    assert not needs_engine(PENDING, ended)
    assert plan(PENDING, ended, NOW, None, GRACE, PERIOD) == Cancel("failed", "RUN_ENDED")


def test_the_engine_is_asked_only_for_a_pending_interrupt_that_names_its_execution() -> None:
    assert needs_engine(PENDING, RUNNING)
    assert not needs_engine(replace(PENDING, execution_arn=None), RUNNING)
    assert not needs_engine(replace(PENDING, status="resolved"), RUNNING)
    assert not needs_engine(None, RUNNING)


def test_nobody_told_although_it_names_people_is_announced_after_the_grace() -> None:
    recheck = at(recheck_after(PENDING, NOW, PERIOD))
    assert plan(PENDING, RUNNING, NOW, "running", GRACE, PERIOD) == Notify(recheck)
    told = replace(PENDING, noticed_at=PENDING.requested_at)
    assert plan(told, RUNNING, NOW, "running", GRACE, PERIOD) == Defer(recheck)
    fresh = replace(PENDING, requested_at=at(-timedelta(seconds=10)))
    assert isinstance(plan(fresh, RUNNING, NOW, "running", GRACE, PERIOD), Defer)


def test_who_an_interrupt_names() -> None:
    assert names_anyone(PENDING)
    assert not names_anyone(replace(PENDING, payload={**APPROVAL, "data": {"title": "t"}}))
    start = {"kind": "conversation.start", "key": "c", "data": {"participants": ["bob"]}}
    assert names_anyone(replace(PENDING, kind="conversation.start", payload=start))
    assert not names_anyone(replace(PENDING, kind="custom", payload={"kind": "custom", "data": {}}))


def test_the_next_look_grows_with_the_wait_between_one_period_and_six_hours() -> None:
    young = replace(PENDING, requested_at=at(-timedelta(seconds=30)))
    assert recheck_after(young, NOW, PERIOD) == PERIOD
    assert recheck_after(PENDING, NOW, PERIOD) == timedelta(minutes=10)
    old = replace(PENDING, requested_at=at(-timedelta(days=3)))
    assert recheck_after(old, NOW, PERIOD) == timedelta(hours=6)


def test_an_interrupt_or_run_not_found_is_left_alone() -> None:
    assert plan(None, RUNNING, NOW, None, GRACE, PERIOD) == Leave()
    assert plan(PENDING, None, NOW, None, GRACE, PERIOD) == Leave()
    assert plan(replace(PENDING, status="cancelled"), RUNNING, NOW, None, GRACE, PERIOD) == Leave()
