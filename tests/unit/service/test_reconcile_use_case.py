"""The reconciler's pass on fakes (service/reconcile.py): each lost hop injected, one pass heals it,
and the run ends as docs/durability.md's invariant says; what is healthy is left alone."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from tests.fakes.memory import MemoryOutstanding
from tests.unit.service.world import ACCEPT, APPROVAL, RUN, World, with_data
from waitgate.run.reconciliation import SHARDS
from waitgate.run.telemetry import Reconciled
from waitgate.service.deliver_resolution import redrive
from waitgate.service.notify import NotificationDependencies
from waitgate.service.reconcile import (
    PassIncompleteError,
    PassReport,
    ReconcileDependencies,
    ReconcileSettings,
    reconcile,
)
from waitgate.service.run_lifecycle import LifecycleDependencies

ARN = "arn:aws:states:us-east-1:123456789012:execution:waitgate-interrupt:run-1"
NAMED = with_data(APPROVAL, approversList=["alice", "bob"])
GRACE = timedelta(seconds=60)


def notifications(world: World) -> NotificationDependencies:
    """As deployed: the notices are recorded in the store (the request marks who was told)."""
    return replace(World.notifications(world), store=world.store)


def reconciler(world: World, outstanding: MemoryOutstanding | None = None) -> ReconcileDependencies:
    return ReconcileDependencies(
        outstanding=outstanding or MemoryOutstanding(world.store),
        delivery=world.delivery(),
        lifecycle=LifecycleDependencies(world.store, world.index, world.clock, world.telemetry),
        notifications=notifications(world),
        settings=ReconcileSettings(period=timedelta(minutes=5), grace=GRACE),
    )


def requested(world: World, payload: dict[str, Any] = NAMED, **more: Any) -> World:
    world.notifying = True
    world.notifications = lambda: notifications(world)  # type: ignore[method-assign]
    world.request(payload, execution_arn=ARN, **more)
    return world


def heals(world: World) -> list[str]:
    return [fact.heal for fact in world.telemetry.of(Reconciled)]


def reconciled_events(world: World) -> list[dict[str, Any]]:
    return [event.payload for event in world.log() if event.type == "interrupt.reconciled"]


def test_a_resolution_whose_delivery_was_lost_is_delivered_after_the_grace() -> None:
    world = requested(World())
    world.workflow.unavailable.add("task-1")
    world.resolve(ACCEPT)  # committed; the inline send throttled and the outbox never ran
    world.workflow.unavailable.clear()
    deps = reconciler(world)
    assert reconcile(deps).healed == {}  # within the grace: the inline send or the outbox may still
    world.clock.advance(seconds=61)
    report = reconcile(deps)
    assert report.healed == {"redelivered": 1}
    assert world.workflow.successes == [("task-1", world.interrupt().resume_value)]
    assert world.interrupt().delivery_outcome == "delivered"
    assert reconciled_events(world)[-1]["heal"] == "redelivered"
    assert heals(world) == ["redelivered"]
    assert reconcile(deps).examined == 0  # delivered: out of the index


def test_a_deadline_no_schedule_fired_for_is_expired_and_the_task_failed_by_name() -> None:
    world = requested(World(), {**NAMED, "timeoutMs": 60_000})
    world.clock.advance(seconds=121)
    report = reconcile(reconciler(world))
    assert report.healed == {"expired": 1}
    assert world.interrupt().status == "expired"
    assert [(token, error) for token, error, _ in world.workflow.failures] == [
        ("task-1", "InterruptTimedOut")
    ]
    assert "interrupt.expired" in world.types()


def test_an_interrupt_of_an_execution_that_ended_without_its_event_is_cancelled() -> None:
    world = requested(World())
    world.workflow.executions[ARN] = "ABORTED"
    world.clock.advance(minutes=2)
    assert reconcile(reconciler(world)).healed == {"cancelled": 1}
    assert world.interrupt().status == "cancelled"
    assert world.store.snapshots[RUN].status == "cancelled"
    assert reconciled_events(world)[-1] == {
        "nodeId": "Gate",
        "interruptId": world.interrupt().interrupt_id,
        "heal": "cancelled",
        "executionStatus": "ABORTED",
    }


def test_an_execution_the_engine_no_longer_knows_fails_the_run() -> None:
    world = requested(World())
    world.workflow.executions[ARN] = "GONE"
    world.clock.advance(minutes=2)
    reconcile(reconciler(world))
    assert world.store.snapshots[RUN].status == "failed"
    assert world.interrupt().status == "cancelled"


def test_a_lost_notice_is_sent_once_and_then_never_again() -> None:
    world = World()
    world.notifier.unreachable.update({"alice", "bob"})  # every publish failed: nobody was told
    requested(world)
    assert world.notifier.notices == [] and world.interrupt().noticed_at is None
    world.notifier.unreachable.clear()
    world.clock.advance(minutes=2)
    deps = reconciler(world)
    assert reconcile(deps).healed == {"notified": 1}
    assert sorted(notice.recipient for notice in world.notifier.notices) == ["alice", "bob"]
    assert world.interrupt().noticed_at is not None
    world.clock.advance(hours=1)
    assert reconcile(deps).healed == {}
    assert len(world.notifier.notices) == 2


def test_a_healthy_interrupt_is_looked_at_less_and_less_often_and_never_changed() -> None:
    world = requested(World())
    assert world.interrupt().noticed_at is not None  # the request told everyone and said so
    deps = reconciler(world)
    looks = []
    for _ in range(12):
        world.clock.advance(minutes=5)
        report = reconcile(deps)
        assert report.healed == {} and report.failed == 0
        looks.append(report.examined)
    assert world.interrupt().status == "pending"
    assert world.workflow.asked and sum(looks) < 12  # the next look moves further off
    assert world.workflow.successes == [] and world.notifier.notices[2:] == []


def test_a_pass_is_one_query_per_shard_whatever_the_history() -> None:
    world = requested(World())  # run-1 waits: the one interrupt a pass looks at
    for n in range(30):  # thirty runs decided and delivered: history the pass never reads
        run = replace(RUN, run_id=f"old-{n}")
        world.request(NAMED, run=run, execution_arn=ARN, token=f"t{n}")
        world.resolve(ACCEPT, run=run)
    outstanding = MemoryOutstanding(world.store)
    world.clock.advance(hours=1)
    report: PassReport = reconcile(reconciler(world, outstanding))
    assert report.examined == 1
    assert outstanding.queries == SHARDS


def test_a_refused_delivery_is_parked_not_retried_and_redriven_by_an_operator() -> None:
    world = requested(World())
    world.workflow.refusing.add("task-1")
    world.resolve(ACCEPT)
    assert world.interrupt().delivery_outcome == "refused"
    failed = [event.payload for event in world.log() if event.type == "interrupt.delivery_failed"]
    assert failed[-1]["reason"] == "InvalidOutput"
    outstanding = MemoryOutstanding(world.store)
    world.clock.advance(hours=1)
    assert reconcile(reconciler(world, outstanding)).examined == 0
    assert [ref.interrupt_id for ref in outstanding.parked(10)] == [world.interrupt().interrupt_id]
    world.workflow.refusing.clear()
    ref = outstanding.parked(10)[0]
    assert redrive(ref.run, ref.node_id, ref.interrupt_id, world.delivery()) == "delivered"
    assert world.interrupt().delivery_outcome == "delivered"
    assert outstanding.parked(10) == ()
    assert world.workflow.successes == [("task-1", world.interrupt().resume_value)]


def test_a_redrive_that_meets_a_task_gone_leaves_it_parked() -> None:
    world = requested(World())
    world.workflow.gone.add("task-1")
    world.resolve(ACCEPT)
    assert world.interrupt().delivery_outcome == "task-gone"
    record = world.interrupt()
    assert redrive(record.run, record.node_id, record.interrupt_id, world.delivery()) == "task-gone"
    assert world.interrupt().delivery_outcome == "task-gone"


def test_one_interrupt_that_breaks_never_keeps_the_pass_from_the_others_and_the_pass_fails() -> None:
    world = requested(World())
    other = replace(RUN, run_id="run-2")
    world.workflow.unavailable.add("task-2")
    world.request(NAMED, run=other, token="task-2", execution_arn=ARN)
    world.resolve(ACCEPT, run=other)  # committed, not delivered: the pass owes it a delivery
    world.workflow.unavailable.clear()

    def broken(execution_arn: str) -> None:
        raise RuntimeError("a bug")

    world.workflow.execution_state = broken  # type: ignore[assignment,method-assign]
    world.clock.advance(minutes=2)
    with pytest.raises(PassIncompleteError) as failed:
        reconcile(reconciler(world))
    assert failed.value.report.broken == ["RuntimeError"]
    assert failed.value.report.healed == {"redelivered": 1}
    assert world.interrupt(run=other).delivery_outcome == "delivered"
