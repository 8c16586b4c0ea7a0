"""A run's end on in-memory ports: the execution's status becomes the run's, every interrupt still
pending is cancelled, and nothing that ended before is touched."""

from __future__ import annotations

import pytest

from tests.unit.service.world import ACCEPT, ALICE, APPROVAL, CUSTOM, RUN, World
from waitgate.errors import InterruptAlreadyResolvedError
from waitgate.run.records import RunRef
from waitgate.service.mint_token import MintRequest, mint_interrupt_token
from waitgate.service.resolve_interrupt import ResolveCommand, plan_resolve
from waitgate.service.run_lifecycle import ExecutionEnded, LifecycleDependencies, end_runs

ARN = "arn:aws:states:us-east-1:123456789012:execution:Flow:run-1"


@pytest.fixture
def world() -> World:
    return World()


def end(world: World, status: str, *, name: str = "run-1", arn: str = ARN) -> tuple[RunRef, ...]:
    deps = LifecycleDependencies(world.store, world.index, world.clock)
    return end_runs(ExecutionEnded(name, arn, status), deps)


@pytest.mark.parametrize(
    ("execution_status", "run_status"),
    [("SUCCEEDED", "completed"), ("FAILED", "failed"), ("TIMED_OUT", "failed"), ("ABORTED", "cancelled")],
)
def test_the_executions_end_is_the_runs_and_cancels_what_waits(
    world: World, execution_status: str, run_status: str
) -> None:
    # Given a run suspended at Gate
    world.request(CUSTOM)
    waiting = world.interrupt()
    world.clock.advance(seconds=5)
    # When its execution ends
    assert end(world, execution_status) == (RUN,)
    # Then the run is terminal, its interrupt cancelled, and the log says both in that order
    snapshot = world.store.snapshots[RUN]
    assert (snapshot.status, snapshot.current_node_id, snapshot.pending_interrupt_id) == (
        run_status,
        None,
        None,
    )
    cancelled = world.interrupt()
    assert (cancelled.status, cancelled.version) == ("cancelled", waiting.version + 1)
    changed, cancel = world.log()[-2:]
    assert (changed.type, changed.payload) == (
        "run.status_changed",
        {"status": run_status, "executionStatus": execution_status},
    )
    assert (cancel.type, cancel.payload) == (
        "interrupt.cancelled",
        {"nodeId": "Gate", "interruptId": waiting.interrupt_id},
    )
    assert changed.time == "2026-11-30T10:00:05.000Z"
    # And the key records the cancellation (a re-ask is told so), and the workflow is told nothing
    assert world.store.reentry[(RUN, "label")].status == "cancelled"
    assert world.workflow.successes == world.workflow.failures == []


def test_a_status_that_is_no_end_changes_nothing(world: World) -> None:
    world.request(CUSTOM)
    commits = world.store.commits
    assert end(world, "RUNNING") == ()
    assert end(world, "PENDING_REDRIVE") == ()
    assert world.store.commits == commits and world.interrupt().status == "pending"


def test_after_the_end_no_resolve_and_no_link_is_possible(world: World) -> None:
    world.request(APPROVAL)
    end(world, "ABORTED")
    with pytest.raises(InterruptAlreadyResolvedError, match="cancelled"):
        world.resolve(ACCEPT)
    with pytest.raises(InterruptAlreadyResolvedError):
        mint_interrupt_token(RUN, "Gate", MintRequest("resolve"), world.minting())


def test_every_pending_interrupt_is_cancelled_and_an_ended_one_is_left(world: World) -> None:
    # Given a run with pending interrupts at A and B, and one at C already resolved
    world.request({**CUSTOM, "key": "c"}, node="C", token="task-c")
    world.resolve({"label": "done"}, node="C")
    world.request({**CUSTOM, "key": "a"}, node="A", token="task-a")
    world.request({**CUSTOM, "key": "b"}, node="B", token="task-b")
    resolved = world.interrupt("C")
    # When the execution fails
    end(world, "FAILED")
    # Then A and B are cancelled, C is as it was, and the status change is logged once
    assert [world.interrupt(node).status for node in "ABC"] == ["cancelled", "cancelled", "resolved"]
    assert world.interrupt("C") == resolved
    assert world.types().count("run.status_changed") == 1
    assert world.types().count("interrupt.cancelled") == 2


def test_a_run_without_a_pending_interrupt_only_changes_status(world: World) -> None:
    world.request(CUSTOM)
    world.resolve({"label": "ok"})
    before = len(world.log())
    end(world, "SUCCEEDED")
    assert world.store.snapshots[RUN].status == "completed"
    assert world.types()[before:] == ["run.status_changed"]


def test_a_run_that_ended_before_is_left_as_it_is(world: World) -> None:
    # Given a run that completed
    world.request(CUSTOM)
    end(world, "SUCCEEDED")
    commits, log = world.store.commits, world.log()
    # When its end is reported again (a duplicate event) or differently, Then nothing changes
    end(world, "SUCCEEDED")
    end(world, "ABORTED")
    assert world.store.commits == commits and world.log() == log
    assert world.store.snapshots[RUN].status == "completed"


def test_only_the_linked_execution_ends_a_run(world: World) -> None:
    # Given a run whose first request named its execution's ARN
    world.request(CUSTOM, execution_arn=ARN)
    # When another execution of the same name (another state machine) ends, Then the run is untouched
    assert end(world, "SUCCEEDED", arn=ARN.replace(":Flow:", ":Other:")) == ()
    assert world.store.snapshots[RUN].status == "waiting-input"
    # And when its own ends, it is ended
    assert end(world, "SUCCEEDED") == (RUN,)


def test_a_run_linked_without_an_arn_is_ended_by_its_name_in_every_tenant(world: World) -> None:
    # Given two tenants' runs of the same id, linked by name only (the runId)
    acme = RunRef("acme", "run-1")
    world.request(CUSTOM)
    world.request(CUSTOM, run=acme, token="task-acme")
    # When the execution of that name ends, Then both are cancelled; an unknown name ends nothing
    assert set(end(world, "ABORTED")) == {RUN, acme}
    assert world.interrupt(run=acme).status == "cancelled"
    assert end(world, "ABORTED", name="run-unknown") == ()


def test_a_resolve_that_commits_during_the_end_is_kept(world: World) -> None:
    # Given alice decided on the pending approval just before the execution was stopped
    world.request(APPROVAL)
    command = ResolveCommand(run=RUN, node_id="Gate", resume_value=ACCEPT, caller=ALICE)
    decided = plan_resolve(world.store.load(RUN, "Gate"), command, world.resolving())
    # When her commit lands between the end's read and its write
    world.store.race_next_write(lambda: world.store.commit(decided.change))
    end(world, "ABORTED")
    # Then her resolution stands, and the run is still ended
    assert world.interrupt().status == "resolved"
    assert world.store.snapshots[RUN].status == "cancelled"
    assert "interrupt.cancelled" not in world.types()
