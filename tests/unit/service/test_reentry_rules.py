"""Re-entry keys on in-memory ports: a key is asked at most once in a run's lifetime. Asked again, an
ended key gives its answer at once, a pending one is taken over, a superseded one fails by name."""

from __future__ import annotations

import pytest

from tests.unit.service.world import CUSTOM, RUN, World
from waitgate.run.records import RunRef
from waitgate.run.workflow_errors import CANCELLED, SUPERSEDED, TIMED_OUT
from waitgate.service.deliver_resolution import deliver_undelivered
from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run

VALUE = {"label": "ok"}


@pytest.fixture
def world() -> World:
    return World()


def test_a_resolved_key_asked_again_gets_its_answer_at_once(world: World) -> None:
    # Given key "label" asked at Gate and resolved
    world.request(CUSTOM)
    first = world.interrupt()
    world.resolve(VALUE)
    requested = world.types().count("interrupt.requested")
    # When a later state (another node, a new task token) asks the same key
    outcome = world.request(CUSTOM, node="Later", token="task-2")
    # Then it is answered with the persisted resumeValue, and nobody is asked again
    assert (outcome.status, outcome.interrupt_id) == ("replayed", first.interrupt_id)
    assert world.workflow.successes[-1] == ("task-2", VALUE)
    assert world.types().count("interrupt.requested") == requested
    assert (RUN, "Later") not in world.store.interrupts
    # And the log shows the second ask in debug mode
    replayed = world.log()[-1]
    assert (replayed.type, replayed.mode, replayed.node_id, replayed.payload) == (
        "interrupt.replayed",
        "debug",
        "Later",
        {"nodeId": "Later", "interruptId": first.interrupt_id, "key": "label", "status": "resolved"},
    )


def test_a_replay_gives_the_answer_again_as_often_as_asked(world: World) -> None:
    world.request(CUSTOM)
    world.resolve(VALUE)
    world.request(CUSTOM, token="task-2")
    world.request(CUSTOM, token="task-3")
    assert world.workflow.successes[-2:] == [("task-2", VALUE), ("task-3", VALUE)]


def test_an_expired_key_asked_again_fails_as_it_ended(world: World) -> None:
    world.request({**CUSTOM, "timeoutMs": 1000})
    world.clock.advance(seconds=1)
    expire_interrupt(ExpiryRequest(RUN, "Gate", world.interrupt().interrupt_id), world.delivery())
    assert world.request({**CUSTOM, "timeoutMs": 1000}, token="task-2").status == "replayed"
    assert world.workflow.failures[-1][:2] == ("task-2", TIMED_OUT)


def test_a_cancelled_key_asked_again_fails_as_cancelled(world: World) -> None:
    # Given a run ended (its key cancelled) whose snapshot a redriven state still reaches
    world.request(CUSTOM)
    end_run(RUN, "cancelled", "ABORTED", LifecycleDependencies(world.store, world.index, world.clock))
    assert world.request(CUSTOM, token="task-2").status == "replayed"
    assert world.workflow.failures[-1][:2] == ("task-2", CANCELLED)


def test_a_replay_to_a_task_that_is_gone_is_no_error(world: World) -> None:
    world.request(CUSTOM)
    world.resolve(VALUE)
    world.workflow.gone.add("task-2")
    assert world.request(CUSTOM, token="task-2").status == "replayed"


def test_a_pending_key_asked_from_another_node_takes_its_interrupt_over(world: World) -> None:
    # Given key "label" pending at Gate
    world.request(CUSTOM)
    waiting = world.interrupt()
    # When the same key is asked from another state with a new task token
    outcome = world.request(CUSTOM, node="Retry", token="task-2")
    # Then the interrupt at Gate is taken over: no second interrupt, the new token gets the answer
    assert (outcome.status, outcome.interrupt_id) == ("taken-over", waiting.interrupt_id)
    taken = world.interrupt()
    assert (taken.task_token, taken.version) == ("task-2", waiting.version + 1)
    assert (RUN, "Retry") not in world.store.interrupts
    assert world.types().count("interrupt.requested") == 1
    world.resolve(VALUE)
    assert world.workflow.successes == [("task-2", VALUE)]


def test_a_superseded_key_fails_by_name(world: World) -> None:
    # Given key "label" pending at Gate, then replaced there by key "other"
    world.request(CUSTOM)
    world.request({**CUSTOM, "key": "other"}, token="task-2")
    # When "label" is asked again, from Gate or elsewhere
    for node, token in (("Gate", "task-3"), ("Elsewhere", "task-4")):
        assert world.request(CUSTOM, node=node, token=token).status == "rejected"
        # Then the task fails InterruptSuperseded, and the interrupt of "other" is untouched
        assert world.workflow.failures[-1][:2] == (token, SUPERSEDED)
    assert (world.interrupt().key, world.interrupt().task_token) == ("other", "task-2")


def test_a_key_is_the_runs_own(world: World) -> None:
    # Given key "label" resolved in run-1, Then another run asking "label" is asked anew
    world.request(CUSTOM)
    world.resolve(VALUE)
    assert world.request(CUSTOM, run=RunRef("default", "run-2"), token="task-2").status == "requested"


def test_an_answer_its_own_task_never_got_is_delivered_by_the_replay(world: World) -> None:
    # Given key "label" resolved while its task could not be reached (the send throttled: undelivered)
    world.request(CUSTOM)
    old_task = world.interrupt().task_token
    world.workflow.unavailable.add(old_task)
    world.resolve(VALUE)
    assert world.interrupt().delivered_at is None
    # When its execution asks the key again with a new task (a local restart started it again)
    world.request(CUSTOM, token="task-2")
    # Then the new task gets the answer, and that was the interrupt's delivery
    assert world.workflow.successes[-1] == ("task-2", VALUE)
    delivered = world.interrupt()
    assert (delivered.delivery_outcome, delivered.delivered_at is not None) == ("delivered", True)
    last = world.log()[-1]
    assert (last.type, last.payload["via"]) == ("interrupt.delivered", "replay")
    # And the outbox, told of the commit later, sends nothing to the old task (nor parks it as gone)
    world.workflow.unavailable.clear()
    world.workflow.gone.add(old_task)
    outbox = deliver_undelivered(RUN, "Gate", delivered.interrupt_id, world.delivery())
    assert outbox == "already-delivered" and world.interrupt().delivery_outcome == "delivered"


def test_a_parked_answer_a_replay_delivers_is_parked_no_more(world: World) -> None:
    # Given key "label" resolved after its task was gone: parked as task-gone
    world.request(CUSTOM)
    world.workflow.gone.add(world.interrupt().task_token)
    world.resolve(VALUE)
    assert world.interrupt().delivery_outcome == "task-gone"
    # When a new task asks the key, Then it gets the answer and the interrupt is delivered
    world.request(CUSTOM, token="task-2")
    assert world.workflow.successes[-1] == ("task-2", VALUE)
    assert world.interrupt().delivery_outcome == "delivered"


def test_a_replay_of_a_delivered_answer_marks_nothing(world: World) -> None:
    world.request(CUSTOM)
    world.resolve(VALUE)
    delivered = world.interrupt()
    world.request(CUSTOM, node="Later", token="task-2")
    assert world.interrupt() == delivered
    assert world.types()[-1] == "interrupt.replayed"
