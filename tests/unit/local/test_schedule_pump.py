"""The schedule pump fires due one-time schedules, and reads a waiting schedule's details once."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from typing import Any

from local.standins.schedule_pump import FALLBACK_SECONDS, SchedulePump


class FakeScheduler:
    """EventBridge Scheduler's calls the pump makes, on schedules kept in a dict."""

    def __init__(self) -> None:
        self.schedules: dict[str, dict[str, Any]] = {}
        self.gets: list[str] = []

    def add(self, name: str, at: datetime, modified: int = 1) -> None:
        self.schedules[name] = {
            "Name": name,
            "GroupName": "deadlines",
            "ScheduleExpression": f"at({at.strftime('%Y-%m-%dT%H:%M:%S')})",
            "Target": {"Arn": "arn:aws:lambda:us-east-1:123456789012:function:fire", "Input": "{}"},
            "LastModificationDate": modified,
        }

    def list_schedules(self, **_: Any) -> dict[str, Any]:
        keys = ("Name", "GroupName", "LastModificationDate")
        return {"Schedules": [{k: s[k] for k in keys} for s in self.schedules.values()]}

    def get_schedule(self, Name: str, GroupName: str) -> dict[str, Any]:
        self.gets.append(Name)
        return dict(self.schedules[Name])

    def delete_schedule(self, Name: str, GroupName: str) -> None:
        del self.schedules[Name]


class FakeLambda:
    def __init__(self) -> None:
        self.invoked: list[bytes] = []

    def invoke(self, FunctionName: str, Payload: bytes, InvocationType: str) -> dict[str, Any]:
        assert InvocationType == "Event"  # Scheduler invokes its target asynchronously
        self.invoked.append(Payload)
        return {"StatusCode": 202, "Payload": io.BytesIO(b"")}


def pump_with(scheduler: FakeScheduler, functions: FakeLambda) -> SchedulePump:
    return SchedulePump(lambda service: {"scheduler": scheduler, "lambda": functions}[service])


def test_a_waiting_schedule_is_read_once_and_a_due_one_fires_and_goes() -> None:
    # Given a schedule due in an hour and one due a minute ago
    scheduler, functions = FakeScheduler(), FakeLambda()
    now = datetime.now(UTC)
    scheduler.add("later", now + timedelta(hours=1))
    scheduler.add("due", now - timedelta(minutes=1))
    pump = pump_with(scheduler, functions)
    # When the pump ticks three times
    for _ in range(3):
        pump.tick()
    # Then the due one fired once and was deleted, and the waiting one's details were read once
    assert len(functions.invoked) == 1
    assert list(scheduler.schedules) == ["later"]
    assert scheduler.gets.count("later") == 1


def test_a_schedule_changed_since_it_was_read_is_read_again() -> None:
    # Given a waiting schedule the pump has read
    scheduler, functions = FakeScheduler(), FakeLambda()
    now = datetime.now(UTC)
    scheduler.add("moved", now + timedelta(hours=1))
    pump = pump_with(scheduler, functions)
    pump.tick()
    # When it is made again, due now (a new version)
    scheduler.add("moved", now - timedelta(seconds=1), modified=2)
    pump.tick()
    # Then the pump reads it again and fires it
    assert len(functions.invoked) == 1
    assert scheduler.schedules == {}


def test_the_pump_asks_to_tick_again_when_its_next_schedule_comes_due() -> None:
    # Given a schedule due in a minute and one due in a day
    scheduler, functions = FakeScheduler(), FakeLambda()
    now = datetime.now(UTC)
    scheduler.add("soon", now + timedelta(minutes=1))
    scheduler.add("tomorrow", now + timedelta(days=1))
    pump = pump_with(scheduler, functions)
    # When it ticks, Then it asks for its next tick by the first one's due time, not before it
    seconds = pump.tick()
    assert 0 < seconds <= 60
    # And with nothing waiting, by its fallback (in case it missed news of a new schedule)
    scheduler.schedules.clear()
    assert pump.tick() == FALLBACK_SECONDS
