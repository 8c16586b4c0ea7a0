"""The table stream's one reader: each record to every consumer it is work for, failure-isolated —
a retried record runs only the consumers that failed, a later record never runs before the retry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from waitgate.run.records import RecordProgress
from waitgate.service.dispatch_stream import Consumer, RoutedRecord, dispatch


class MemoryProgress:
    def __init__(self) -> None:
        self.saved: dict[str, RecordProgress] = {}
        self.loads: list[str] = []

    def load(self, record_id: str) -> RecordProgress:
        self.loads.append(record_id)
        return self.saved.get(record_id, RecordProgress())

    def save(self, record_id: str, progress: RecordProgress) -> None:
        self.saved[record_id] = progress


class Calls:
    """Each consumer's calls, and the failures to answer with (a name → how many more times to fail)."""

    def __init__(self) -> None:
        self.made: list[tuple[str, str]] = []
        self.failing: dict[str, int] = {}

    def consumer(self, record: str, name: str, retries: int | None = None, **more: object) -> Consumer:
        def work() -> None:
            self.made.append((record, name))
            if self.failing.get(name, 0) > 0:
                self.failing[name] -= 1
                raise ConnectionError(f"{name} is down")

        give_up = more.get("give_up")
        return Consumer(name, work, retries, give_up if callable(give_up) else None)


@pytest.fixture
def calls() -> Calls:
    return Calls()


def batch(calls: Calls, *records: str, retries: dict[str, int | None] | None = None) -> list[RoutedRecord]:
    budgets = retries or {}
    names = ("outbox", "slack-refresh", "schedule-cleanup")
    return [
        RoutedRecord(record, tuple(calls.consumer(record, name, budgets.get(name)) for name in names))
        for record in records
    ]


def test_every_consumer_runs_on_every_record_in_order(calls: Calls) -> None:
    progress = MemoryProgress()
    outcome = dispatch(batch(calls, "1", "2"), progress)
    assert outcome.failed == ()
    assert calls.made == [(r, n) for r in ("1", "2") for n in ("outbox", "slack-refresh", "schedule-cleanup")]
    # And a batch that went well wrote nothing and read once (its first record)
    assert progress.saved == {} and progress.loads == ["1"]


def test_a_failing_consumer_reports_its_record_and_stops_the_batch_there(calls: Calls) -> None:
    # Given the Slack refresh failing on the first record
    calls.failing["slack-refresh"] = 1
    progress = MemoryProgress()
    outcome = dispatch(batch(calls, "1", "2"), progress)
    # Then record 1 is reported, the cleanup still ran on it, and record 2 did not run at all
    assert outcome.failed == ("1",)
    assert calls.made == [("1", "outbox"), ("1", "slack-refresh"), ("1", "schedule-cleanup")]
    assert progress.saved["1"].done == {"outbox", "schedule-cleanup"}
    # When the mapping retries from record 1, Then only the refresh runs again on it, then record 2 whole
    calls.made.clear()
    assert dispatch(batch(calls, "1", "2"), progress).failed == ()
    assert calls.made == [
        ("1", "slack-refresh"),
        ("2", "outbox"),
        ("2", "slack-refresh"),
        ("2", "schedule-cleanup"),
    ]


def test_a_failure_on_a_later_record_keeps_the_earlier_ones_done(calls: Calls) -> None:
    # Given the outbox failing on the second record of three
    progress = MemoryProgress()
    records = batch(calls, "1", "2", "3")
    failing_outbox: Callable[[], None] = lambda: (_ for _ in ()).throw(ConnectionError("throttled"))  # noqa: E731
    records[1] = RoutedRecord("2", (Consumer("outbox", failing_outbox), *records[1].consumers[1:]))
    outcome = dispatch(records, progress)
    # Then record 2 is where the retry starts; record 3 never ran; record 1 is not remembered (it is done)
    assert outcome.failed == ("2",)
    assert ("3", "outbox") not in calls.made
    assert set(progress.saved) == {"2"} and progress.saved["2"].failing == {"outbox"}


def test_a_best_effort_consumer_is_given_up_after_its_retries(calls: Calls) -> None:
    # Given the cleanup failing for good, with 3 retries
    calls.failing["schedule-cleanup"] = 100
    progress = MemoryProgress()
    failed = [dispatch(batch(calls, "1", retries={"schedule-cleanup": 3}), progress) for _ in range(3)]
    assert [outcome.failed for outcome in failed] == [("1",)] * 3
    # When its third retry fails too, Then it is given up: the record goes through, the others ran once
    last = dispatch(batch(calls, "1", retries={"schedule-cleanup": 3}), progress)
    assert (last.failed, last.given_up) == ((), (("1", "schedule-cleanup"),))
    assert calls.made.count(("1", "outbox")) == 1 and calls.made.count(("1", "schedule-cleanup")) == 4


def test_giving_up_tells_the_consumer_why(calls: Calls) -> None:
    told: list[str] = []
    calls.failing["slack-refresh"] = 1
    record = RoutedRecord(
        "1", (calls.consumer("1", "slack-refresh", 0, give_up=lambda e: told.append(str(e))),)
    )
    assert dispatch([record], MemoryProgress()).given_up == (("1", "slack-refresh"),)
    assert told == ["slack-refresh is down"]


def test_the_outbox_is_never_given_up_by_the_dispatcher(calls: Calls) -> None:
    calls.failing["outbox"] = 100
    progress = MemoryProgress()
    for _ in range(20):
        assert dispatch(batch(calls, "1"), progress).failed == ("1",)
    assert progress.saved["1"].attempts["outbox"] == 20


def test_a_record_no_consumer_wants_is_passed_over(calls: Calls) -> None:
    progress = MemoryProgress()
    assert dispatch([RoutedRecord("1", ()), *batch(calls, "2")], progress).failed == ()
    assert calls.made[0] == ("2", "outbox")
