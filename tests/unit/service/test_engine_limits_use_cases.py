"""What the engines and Scheduler refuse, met by the use cases: an answer too large for the engine fails
the run by name (InterruptResultTooLarge) instead of being retried for ever, and a deadline that is due
before a schedule could fire for it is expired by the request itself."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

import pytest

from tests.fakes.memory import FixedClock
from tests.fakes.schedules import RecordingScheduler
from tests.unit.service.world import CUSTOM, RUN, World
from waitgate.errors import ScheduleInPastError
from waitgate.run.records import InterruptRecord
from waitgate.run.reentry import ended_key
from waitgate.run.workflow_errors import RESULT_TOO_LARGE, TIMED_OUT
from waitgate.service._reentry import answer_replay
from waitgate.service.deliver_resolution import TOO_LARGE, deliver, deliver_undelivered
from waitgate.service.request_interrupt import InterruptRequest, request_interrupt

LONG = {"label": "д" * 200}  # 200 Cyrillic letters: 212 characters of JSON, 412 bytes of UTF-8


@pytest.fixture
def world() -> World:
    world = World()
    world.workflow.output_limit = 100  # an engine that takes 100 characters of JSON
    return world


def test_an_answer_the_engine_cannot_take_fails_the_run_by_name_at_once(world: World) -> None:
    # Given a pending interrupt
    world.request(CUSTOM)
    # When it is resolved with a value larger than its engine takes
    outcome = world.resolve(LONG)
    # Then nothing was sent as a success: the task failed with InterruptResultTooLarge, saying the size
    assert outcome.status == "resolved"
    assert world.workflow.successes == []
    ((token, error, cause),) = world.workflow.failures
    assert (token, error) == ("task-1", RESULT_TOO_LARGE) and "212 characters" in cause
    # And the item says so, with a debug event: the outbox never sends it again
    record = world.interrupt()
    assert record.delivery_outcome == TOO_LARGE and record.delivered_at is not None
    (event,) = [e for e in world.log() if e.type == "interrupt.delivery_failed"]
    assert event.payload["reason"] == RESULT_TOO_LARGE
    assert deliver_undelivered(record.run, record.node_id, record.interrupt_id, world.delivery()) == (
        "already-delivered"
    )
    assert len(world.workflow.failures) == 1


def test_the_outbox_fails_a_too_large_answer_instead_of_retrying_it(world: World) -> None:
    # Given a resolution whose inline send was throttled (committed, not delivered)
    world.request(CUSTOM)
    world.workflow.unavailable.add("task-1")
    world.resolve(LONG)
    world.workflow.unavailable.clear()
    record = world.interrupt()
    # When the outbox delivers it
    assert deliver(record, world.delivery(), "outbox") == "too-large"
    # Then the run is failed by name, once
    assert [f[1] for f in world.workflow.failures] == [RESULT_TOO_LARGE]
    assert world.interrupt().delivery_outcome == TOO_LARGE


def test_a_second_try_after_the_first_ones_mark_was_lost_still_says_too_large(world: World) -> None:
    # Given a too-large answer whose run the outbox failed, but whose mark the store did not take
    world.request(CUSTOM)
    world.workflow.unavailable.add("task-1")
    world.resolve(LONG)
    world.workflow.unavailable.clear()
    record = world.interrupt()
    world.workflow.gone.add("task-1")  # the first try failed the task; the engine now calls it gone
    # When the outbox tries again
    assert deliver(record, world.delivery(), "outbox") == "too-large"
    # Then the item says what happened (too large), not that the task was gone (a parked delivery)
    assert world.interrupt().delivery_outcome == TOO_LARGE


def test_a_replayed_answer_too_large_for_the_engine_fails_the_asking_task(world: World) -> None:
    # Given a key resolved with a value the (now smaller) engine cannot take
    world.workflow.output_limit = None
    world.request(CUSTOM)
    world.resolve(LONG)
    world.workflow.output_limit = 100
    # When the key is asked again and its answer replayed
    answer_replay(ended_key(world.interrupt()), "task-2", world.workflow)
    # Then the asking task fails by name
    assert world.workflow.failures[-1][:2] == ("task-2", RESULT_TOO_LARGE)


@dataclass
class SlowScheduler(RecordingScheduler):
    """A Scheduler reached only after `late_by`, which then refuses a moment that has passed."""

    world: World | None = None
    late_by_seconds: float = 0

    def schedule_expiry(self, record: InterruptRecord) -> None:
        assert self.world is not None and record.deadline is not None
        self.world.clock.advance(seconds=self.late_by_seconds)
        if datetime.fromisoformat(record.deadline.replace("Z", "+00:00")) <= self.world.clock.now():
            raise ScheduleInPastError("Scheduler refused it: its moment has passed.")
        super().schedule_expiry(record)


def requested(world: World, scheduler: RecordingScheduler, timeout_ms: int) -> None:
    deps = replace(world.requesting(), deadlines=scheduler)
    payload = {**CUSTOM, "timeoutMs": timeout_ms}
    request_interrupt(InterruptRequest("task-1", RUN, "Gate", payload), deps)


def test_a_deadline_refused_by_scheduler_as_past_is_expired_by_the_request(world: World) -> None:
    # Given a 500 ms deadline and a Scheduler that sees the request 2 s later (and refuses it as past)
    scheduler = SlowScheduler(world=world, late_by_seconds=2)
    # When the interrupt is requested
    requested(world, scheduler, 500)
    # Then no schedule exists, and the interrupt was expired at once: the task failed with InterruptTimedOut
    assert scheduler.schedules == {}
    assert world.interrupt().status == "expired"
    assert [(token, error) for token, error, _ in world.workflow.failures] == [("task-1", TIMED_OUT)]
    assert world.types()[-3:] == ["interrupt.requested", "interrupt.expired", "interrupt.delivered"]


@dataclass
class LateClock(FixedClock):
    """A clock 10 ms later at every look: a request slower than its 1 ms deadline."""

    def now(self) -> datetime:
        self.advance(seconds=0.01)
        return self.moment


def test_a_deadline_already_past_gets_no_schedule_and_expires_at_once(world: World) -> None:
    # Given a request whose 1 ms deadline has passed before anything is scheduled
    world.clock = LateClock()
    scheduler = RecordingScheduler()
    # When the interrupt is requested
    requested(world, scheduler, 1)
    # Then Scheduler was not asked, and the interrupt expired: the task failed with InterruptTimedOut
    assert scheduler.schedules == {}
    assert world.interrupt().status == "expired"
    assert [error for _, error, _ in world.workflow.failures] == [TIMED_OUT]


def test_a_deadline_in_the_future_is_scheduled_and_waits(world: World) -> None:
    scheduler = SlowScheduler(world=world, late_by_seconds=0.1)
    requested(world, scheduler, 60_000)
    assert list(scheduler.schedules) == [f"expire-{world.interrupt().interrupt_id}"]
    assert world.interrupt().status == "pending" and world.workflow.failures == []


@dataclass
class PastRefusingScheduler(RecordingScheduler):
    """Refuses a step whose moment is not after the clock's now, as Scheduler refuses a past at()."""

    world: World | None = None

    def schedule_step(self, record: InterruptRecord, step: int, due: datetime) -> None:
        assert self.world is not None
        self.world.clock.advance(seconds=1)  # Scheduler is reached a second later
        if due <= self.world.clock.now():
            raise ScheduleInPastError("Scheduler refused it: its moment has passed.")
        super().schedule_step(record, step, due)


def test_an_escalation_step_refused_as_past_is_scheduled_again_to_fire_now(world: World) -> None:
    # Given a policy whose first step is due 20 ms after the request, and a Scheduler reached later
    scheduler = PastRefusingScheduler(world=world)
    deps = replace(world.requesting(), deadlines=scheduler)
    policy = {"steps": [{"afterMs": 20, "remind": True}]}
    request = InterruptRequest("task-1", RUN, "Gate", {**CUSTOM, "timeoutMs": 3_600_000}, escalation=policy)
    # When the interrupt is requested
    request_interrupt(request, deps)
    # Then the step is scheduled after all, a moment ahead of when Scheduler refused it
    ((step, due),) = scheduler.steps()
    assert step == 0 and isinstance(due, datetime) and due > world.clock.now()
