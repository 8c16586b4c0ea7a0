"""expireInterrupt on in-memory ports: the deadline ends a pending interrupt once and fails its task;
a schedule that fires early, late or for something else changes nothing."""

from __future__ import annotations

import pytest

from tests.unit.service.world import ACCEPT, ALICE, APPROVAL, CUSTOM, RUN, World
from waitgate.errors import ConcurrentUpdateError, InterruptAlreadyResolvedError
from waitgate.run.optimistic import MAX_ATTEMPTS
from waitgate.run.records import RunRef
from waitgate.run.workflow_errors import TIMED_OUT
from waitgate.service.deliver_resolution import deliver_undelivered
from waitgate.service.expire_interrupt import ExpiryRequest, NotDueError, expire_interrupt
from waitgate.service.record_decision import DecisionDependencies, record_decision
from waitgate.service.resolve_interrupt import ResolveCommand, plan_resolve
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run

TIMED = {**CUSTOM, "timeoutMs": 2000}


@pytest.fixture
def world() -> World:
    return World()


def expire(world: World, *, node: str = "Gate", interrupt_id: str | None = None, run: RunRef = RUN) -> str:
    chosen = interrupt_id or world.interrupt(node).interrupt_id
    return expire_interrupt(ExpiryRequest(run, node, chosen), world.delivery())


def test_at_the_deadline_the_interrupt_expires_and_the_task_fails(world: World) -> None:
    # Given an interrupt with a 2-second deadline, and the clock exactly at it
    world.request(TIMED)
    record = world.interrupt()
    world.clock.advance(seconds=2)
    # When its schedule fires
    assert expire(world) == "expired"
    # Then it is expired (its version moved on), the run goes on, and the task fails by name
    expired = world.interrupt()
    assert (expired.status, expired.version) == ("expired", record.version + 2)  # expired, then delivered
    snapshot = world.store.snapshots[RUN]
    assert (snapshot.status, snapshot.current_node_id, snapshot.pending_interrupt_id) == (
        "running",
        None,
        None,
    )
    [(token, error, cause)] = world.workflow.failures
    assert (token, error) == ("task-1", TIMED_OUT) and record.deadline in cause
    assert world.workflow.successes == []
    # And the log says so, with the delivery in debug mode
    expired_event, delivered = world.log()[-2:]
    assert (expired_event.type, expired_event.payload) == (
        "interrupt.expired",
        {"nodeId": "Gate", "interruptId": record.interrupt_id, "deadline": record.deadline},
    )
    assert (delivered.type, delivered.mode) == ("interrupt.delivered", "debug")
    assert delivered.payload["via"] == "expiry" and delivered.payload["outcome"] == "failure"
    assert (expired.delivered_at, expired.delivery_outcome) == ("2026-11-30T10:00:02.000Z", "delivered")
    # And the re-entry key records how it ended
    assert world.store.reentry[(RUN, "label")].status == "expired"


def test_a_schedule_that_fires_early_fails_so_the_scheduler_retries(world: World) -> None:
    world.request(TIMED)
    world.clock.advance(seconds=1.999)
    commits = world.store.commits
    with pytest.raises(NotDueError) as early:
        expire(world)
    assert early.value.status == 503
    assert world.interrupt().status == "pending" and world.store.commits == commits
    assert world.workflow.failures == []


def test_an_interrupt_without_a_deadline_is_never_due(world: World) -> None:
    world.request(CUSTOM)
    world.clock.advance(days=365)
    with pytest.raises(NotDueError):
        expire(world)
    assert world.interrupt().status == "pending"


def test_a_resolution_that_won_first_stays_won(world: World) -> None:
    # Given a timed interrupt resolved before its deadline
    world.request(TIMED)
    world.resolve({"label": "ok"})
    world.clock.advance(seconds=5)
    # When the schedule fires late, Then nothing changes and the task is not failed
    commits = world.store.commits
    assert expire(world) == "not-pending"
    assert world.interrupt().status == "resolved" and world.store.commits == commits
    assert world.workflow.failures == []


def test_a_resolve_racing_the_expiry_wins_if_it_commits_first(world: World) -> None:
    # Given a timed approval alice read and decided a moment before its deadline
    world.request({**APPROVAL, "timeoutMs": 2000})
    world.clock.advance(seconds=1)
    command = ResolveCommand(run=RUN, node_id="Gate", resume_value=ACCEPT, caller=ALICE)
    decided = plan_resolve(world.store.load(RUN, "Gate"), command, world.resolving())
    # When the schedule fires at the deadline and her commit lands between its read and its write
    world.clock.advance(seconds=1)
    world.store.race_next_write(lambda: world.store.commit(decided.change))
    # Then the expiry reads again, finds the interrupt resolved, and changes nothing
    assert expire(world) == "not-pending"
    assert world.interrupt().status == "resolved"
    assert "interrupt.expired" not in world.types()
    assert world.workflow.failures == []


def test_a_cancelled_interrupt_does_not_expire(world: World) -> None:
    world.request(TIMED)
    end_run(RUN, "cancelled", "ABORTED", LifecycleDependencies(world.store, world.index, world.clock))
    world.clock.advance(seconds=3)
    assert expire(world) == "not-pending"
    assert world.workflow.failures == []


def test_a_schedule_for_something_else_changes_nothing(world: World) -> None:
    # Given a timed interrupt, and a later one at the same node (the first was resolved)
    world.request(TIMED)
    first = world.interrupt().interrupt_id
    world.resolve({"label": "ok"})
    world.request({**TIMED, "key": "again"}, token="task-2")
    world.clock.advance(seconds=3)
    commits = world.store.commits
    # Then the first one's schedule, one for a node or run never committed, all find nothing
    assert expire(world, interrupt_id=first) == "unknown"
    assert expire(world, node="Elsewhere", interrupt_id=first) == "unknown"
    assert expire(world, run=RunRef("default", "run-never"), interrupt_id=first) == "unknown"
    assert expire(world, run=RunRef("acme", "run-1"), interrupt_id=first) == "unknown"
    assert world.store.commits == commits
    # And the later one's own schedule expires it
    assert expire(world) == "expired"


def test_a_task_that_is_gone_is_recorded_and_the_expiry_stands(world: World) -> None:
    world.request(TIMED)
    world.workflow.gone.add("task-1")
    world.clock.advance(seconds=2)
    assert expire(world) == "expired"
    record = world.interrupt()
    assert (record.status, record.delivery_outcome) == ("expired", "task-gone")
    failed = world.log()[-1]
    assert (failed.type, failed.payload["reason"], failed.payload["via"]) == (
        "interrupt.delivery_failed",
        "TaskTimedOut",
        "expiry",
    )
    # And the outbox never retries it
    assert deliver_undelivered(RUN, "Gate", record.interrupt_id, world.delivery()) == "already-delivered"


def test_a_throttled_failure_is_left_to_the_outbox(world: World) -> None:
    # Given Step Functions throttles the expiry's send
    world.request(TIMED)
    world.workflow.unavailable.add("task-1")
    world.clock.advance(seconds=2)
    # Then the expiry is committed but undelivered, and nothing raises
    assert expire(world) == "expired"
    record = world.interrupt()
    assert (record.status, record.delivered_at) == ("expired", None)
    assert world.workflow.failures == []
    # And once Step Functions answers again, the outbox fails the task
    world.workflow.unavailable.clear()
    assert deliver_undelivered(RUN, "Gate", record.interrupt_id, world.delivery()) == "delivered"
    assert world.workflow.failures[0][:2] == ("task-1", TIMED_OUT)
    assert world.log()[-1].payload["via"] == "outbox"


def test_an_expired_interrupt_refuses_resolves(world: World) -> None:
    world.request(TIMED)
    world.clock.advance(seconds=2)
    expire(world)
    with pytest.raises(InterruptAlreadyResolvedError, match="expired"):
        world.resolve({"label": "late"})


def test_expiring_one_node_leaves_the_run_waiting_on_another(world: World) -> None:
    # Given a timed interrupt at A, then another at B (the run's current node)
    world.request(TIMED, node="A")
    world.request({**CUSTOM, "key": "other"}, node="B", token="task-2")
    world.clock.advance(seconds=2)
    # When A expires, Then the snapshot still shows the run waiting at B
    assert expire(world, node="A") == "expired"
    snapshot = world.store.snapshots[RUN]
    assert (snapshot.status, snapshot.current_node_id) == ("waiting-input", "B")


def test_a_storm_of_writers_past_the_bound_fails_loudly(world: World) -> None:
    # Given every attempt of the expiry loses to another write on the run
    world.request(TIMED)
    world.clock.advance(seconds=2)
    deps = DecisionDependencies(world.store, world.clock, 0.5)
    decision = {"runId": "run-1", "nodeId": "Agent", "decision": {"agentId": "a", "confidence": 1}}
    for _ in range(MAX_ATTEMPTS):
        world.store.race_next_write(lambda: record_decision(decision, deps))
    # Then it gives up with a conflict (the schedule's invocation fails and is retried), nothing half-done
    with pytest.raises(ConcurrentUpdateError, match=f"{MAX_ATTEMPTS} attempts"):
        expire(world)
    assert world.interrupt().status == "pending" and world.workflow.failures == []
    # And the retried invocation, once the storm is over, expires it
    assert expire(world) == "expired"
