"""One contract, two stores: the in-memory fake the unit tests use and the DynamoDB adapter on moto.
If the fake drifted from DynamoDB's conditional semantics, this suite would say so."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import replace
from typing import Any

import boto3
import pytest

from tests.fakes.memory import MemoryStore
from waitgate.adapters.dynamodb_store import DynamoDbStore
from waitgate.errors import ConcurrentUpdateError
from waitgate.records import InterruptRecord, RunChange, RunEvent, RunRef, RunSnapshot

RUN = RunRef("default", "run-1")


@pytest.fixture(params=["memory", "dynamodb"])
def store(request: pytest.FixtureRequest) -> Any:
    if request.param == "memory":
        return MemoryStore()
    table_name = request.getfixturevalue("table_name")
    return DynamoDbStore(boto3.client("dynamodb", region_name="us-east-1"), table_name)


def interrupt(version: int = 1, status: str = "pending") -> InterruptRecord:
    return InterruptRecord(
        run=RUN,
        node_id="Gate",
        interrupt_id="01ABC",
        kind="approval",
        key="k",
        payload={"kind": "approval", "key": "k", "data": {"title": "Ship?", "n": 1.5}},
        task_token="task",
        requested_at="2026-11-30T10:00:00.000Z",
        status=status,  # type: ignore[arg-type]
        version=version,
    )


def first_change() -> RunChange:
    snapshot = replace(RunSnapshot.new(RUN), status="waiting-approval", current_node_id="Gate", next_seq=2)
    event = RunEvent(
        seq=1, type="interrupt.requested", time="2026-11-30T10:00:00.000Z", payload={"a": 1}, node_id="Gate"
    )
    return RunChange(snapshot=snapshot, interrupt=interrupt(), events=(event,))


def test_a_new_run_reads_as_nothing(store: Any) -> None:
    view = store.load(RUN, "Gate")
    assert view.snapshot is None and view.interrupt is None


def test_what_is_committed_reads_back_the_same(store: Any) -> None:
    store.commit(first_change())
    view = store.load(RUN, "Gate")
    assert view.interrupt == interrupt()
    assert view.snapshot.status == "waiting-approval"
    assert view.snapshot.next_seq == 2 and view.snapshot.version_seen == 2
    assert store.load(RunRef("other", "run-1"), "Gate").snapshot is None


def test_a_second_new_run_with_the_same_id_loses(store: Any) -> None:
    store.commit(first_change())
    with pytest.raises(ConcurrentUpdateError):
        store.commit(first_change())


def test_a_change_based_on_a_stale_read_loses_and_changes_nothing(store: Any) -> None:
    store.commit(first_change())
    view = store.load(RUN, "Gate")
    resolved = replace(view.interrupt, status="resolved", version=2, resume_value={"ok": True})
    winner = RunChange(
        snapshot=replace(view.snapshot, next_seq=3), interrupt=resolved, expected_interrupt_version=1
    )
    store.commit(winner)
    loser = RunChange(
        snapshot=replace(view.snapshot, next_seq=3),
        interrupt=replace(resolved, resume_value={"ok": False}),
        expected_interrupt_version=1,
    )
    with pytest.raises(ConcurrentUpdateError):
        store.commit(loser)
    assert store.load(RUN, "Gate").interrupt.resume_value == {"ok": True}


def test_racing_writers_on_threads_one_commit_per_read(store: Any) -> None:
    # Given one pending interrupt and eight writers that all read it before any writes
    store.commit(first_change())
    view = store.load(RUN, "Gate")
    barrier = threading.Barrier(8)
    results: list[str] = []

    def write(n: int) -> None:
        change = RunChange(
            snapshot=replace(view.snapshot, next_seq=3),
            interrupt=replace(view.interrupt, status="resolved", version=2, resume_value={"n": n}),
            expected_interrupt_version=1,
            events=(RunEvent(seq=2, type="interrupt.resolved", time="t", payload={"n": n}),),
        )
        barrier.wait()
        try:
            store.commit(change)
            results.append("won")
        except ConcurrentUpdateError:
            results.append("lost")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then exactly one commits
    assert Counter(results) == {"won": 1, "lost": 7}
