"""One contract, two stores: the in-memory fake the unit tests use and the DynamoDB adapter on moto.
If the fake drifted from DynamoDB's conditional or paging semantics, this suite would say so (the run
index and the directory have theirs in test_lookup_contract.py)."""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from dataclasses import replace
from typing import Any

import boto3
import pytest

from tests.fakes.memory import MemoryStore
from waitgate.adapters.dynamodb_store import DynamoDbStore
from waitgate.errors import ConcurrentUpdateError, GuardFailedError
from waitgate.run.records import (
    ConversationRef,
    GuardedItem,
    IdempotencyRef,
    InterruptRecord,
    RunChange,
    RunEvent,
    RunRef,
    RunSnapshot,
    StoredAnswer,
)
from waitgate.run.resume_handles import durable_callback_handle, handle_kind

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


def test_an_escalation_policy_and_its_fired_steps_read_back_the_same(store: Any) -> None:
    escalated = replace(interrupt(), escalation={"steps": [{"afterMs": 9, "remind": True}]}, escalated=(0,))
    store.commit(replace(first_change(), interrupt=escalated))
    assert store.load(RUN, "Gate").interrupt == escalated


def test_a_durable_callback_handle_reads_back_the_same(store: Any) -> None:
    # A Lambda durable function's run waits on a callback id, stored beside task tokens as its handle
    waiting = replace(interrupt(), task_token=durable_callback_handle("eyJhcm4iOiJ4In0="))
    store.commit(replace(first_change(), interrupt=waiting))
    read = store.load(RUN, "Gate").interrupt
    assert read == waiting and handle_kind(read.task_token) == "durable-callback"


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


def test_a_change_that_lost_carries_the_run_and_node_the_winner_left(store: Any) -> None:
    # Given a pending interrupt resolved by one writer after another read it
    store.commit(first_change())
    view = store.load(RUN, "Gate")
    resolved = replace(view.interrupt, status="resolved", version=2, resume_value={"ok": True})
    store.commit(
        RunChange(
            snapshot=replace(view.snapshot, next_seq=3), interrupt=resolved, expected_interrupt_version=1
        )
    )
    # When the other commits on its stale read
    with pytest.raises(ConcurrentUpdateError) as lost:
        store.commit(
            RunChange(
                snapshot=replace(view.snapshot, next_seq=3),
                interrupt=replace(resolved, resume_value={"ok": False}),
                expected_interrupt_version=1,
            )
        )
    # Then its refusal holds what a read would give now (DynamoDB: the items whose condition failed)
    assert lost.value.current == store.load(RUN, "Gate")
    assert lost.value.current.interrupt.resume_value == {"ok": True}


def test_a_change_that_lost_on_the_snapshot_alone_carries_nothing(store: Any) -> None:
    # Given a run whose event counter moved (another node's event) while its interrupt did not
    store.commit(first_change())
    view = store.load(RUN, "Gate")
    store.commit(RunChange(snapshot=replace(view.snapshot, next_seq=3)))
    # When a change read before it commits
    with pytest.raises(ConcurrentUpdateError) as lost:
        store.commit(
            RunChange(
                snapshot=replace(view.snapshot, next_seq=3),
                interrupt=replace(view.interrupt, status="resolved", version=2),
                expected_interrupt_version=1,
            )
        )
    # Then the node's item was not refused, so the use case reads again
    assert lost.value.current is None


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


def test_a_snapshot_read_alone_is_the_loaded_one(store: Any) -> None:
    assert store.snapshot(RUN) is None
    store.commit(first_change())
    assert store.snapshot(RUN) == store.load(RUN, "Gate").snapshot
    assert store.snapshot(RunRef("other", "run-1")) is None


def logged(count: int, debug: frozenset[int] = frozenset()) -> RunChange:
    """A new run whose log holds events 1..count, those in `debug` of the debug mode."""
    events = tuple(
        RunEvent(seq, "agent.decided", "t", {"n": seq}, "Gate", "debug" if seq in debug else "updates")
        for seq in range(1, count + 1)
    )
    return RunChange(snapshot=replace(RunSnapshot.new(RUN), next_seq=count + 1), events=events)


BOTH = frozenset({"updates", "debug"})


def test_events_page_by_seq_and_a_full_page_says_where_to_go_on(store: Any) -> None:
    # Given a log of five events
    store.commit(logged(5))
    # Then pages of two are 1-2, 3-4 (each with next) and 5 (without)
    first = store.events(RUN, 0, 2, BOTH)
    assert ([e.seq for e in first.events], first.next) == ([1, 2], 2)
    assert [e.seq for e in store.events(RUN, 2, 2, BOTH).events] == [3, 4]
    last = store.events(RUN, 4, 2, BOTH)
    assert ([e.seq for e in last.events], last.next) == ([5], None)
    # And what is read is what was written
    assert store.events(RUN, 0, 1, BOTH).events[0] == logged(5).events[0]
    # And a page that ends exactly at the last event still has a next (DynamoDB cannot know)
    assert store.events(RUN, 3, 2, BOTH).next == 5
    assert store.events(RUN, 5, 2, BOTH).events == ()


def test_the_mode_filter_applies_after_the_limit(store: Any) -> None:
    # Given events 1-4 of which 2 and 3 are debug
    store.commit(logged(4, debug=frozenset({2, 3})))
    updates = frozenset({"updates"})
    # Then a page of two examines 1-2 and returns 1; the next examines 3-4 and returns 4
    first = store.events(RUN, 0, 2, updates)
    assert ([e.seq for e in first.events], first.next) == ([1], 2)
    assert [e.seq for e in store.events(RUN, 2, 2, updates).events] == [4]
    # And a page of only debug events is empty yet goes on
    only_debug = store.events(RUN, 1, 2, updates)
    assert (only_debug.events, only_debug.next) == ((), 3)
    assert [e.mode for e in store.events(RUN, 1, 2, BOTH).events] == ["debug", "debug"]


def resolved(store: Any) -> InterruptRecord:
    store.commit(first_change())
    view = store.load(RUN, "Gate")
    record = replace(view.interrupt, status="resolved", version=2, resume_value={"ok": True})
    store.commit(RunChange(snapshot=view.snapshot, interrupt=record, expected_interrupt_version=1))
    return record


def test_a_pending_interrupt_is_never_marked_delivered(store: Any) -> None:
    # Given a pending interrupt, it cannot be marked
    store.commit(first_change())
    assert store.mark_delivered(interrupt(), "2026-11-30T10:00:01.000Z") is False
    assert store.load(RUN, "Gate").interrupt.delivered_at is None


def test_a_delivery_is_marked_once_and_only_on_its_own_interrupt(store: Any) -> None:
    # Given a resolved interrupt
    record = resolved(store)
    # When marked delivered, Then its version moves on; a second mark changes nothing
    assert store.mark_delivered(record, "2026-11-30T10:00:01.000Z") is True
    marked = store.load(RUN, "Gate").interrupt
    assert (marked.delivered_at, marked.delivery_outcome, marked.version) == (
        "2026-11-30T10:00:01.000Z",
        "delivered",
        3,
    )
    assert store.mark_delivered(record, "2026-11-30T10:00:02.000Z") is False
    assert store.load(RUN, "Gate").interrupt == marked
    # And another interrupt at the node is never marked by this one
    assert store.mark_delivered(replace(record, interrupt_id="01OTHER"), "t") is False


def test_a_task_gone_mark_yields_to_a_delivery(store: Any) -> None:
    store.commit(first_change())
    view = store.load(RUN, "Gate")
    gone = replace(
        view.interrupt,
        status="expired",
        version=2,
        delivered_at="2026-11-30T10:00:01.000Z",
        delivery_outcome="task-gone",
    )
    store.commit(RunChange(snapshot=view.snapshot, interrupt=gone, expected_interrupt_version=1))
    assert store.mark_delivered(gone, "2026-11-30T10:00:02.000Z") is True
    assert store.load(RUN, "Gate").interrupt.delivery_outcome == "delivered"


CONVERSATION = ConversationRef("default", "c-1")


RUN_NUMBERS = itertools.count(100)


def guarded(*guards: GuardedItem) -> RunChange:
    """A change of its own run (new each time), carrying only guards."""
    run = RunRef("default", f"run-{next(RUN_NUMBERS)}")
    return RunChange(snapshot=RunSnapshot.new(run), guarded=guards)


def test_guards_hold_or_fail_the_whole_change_by_label(store: Any) -> None:
    started = GuardedItem(CONVERSATION, "unique", expect=None, put={"status": "open"})
    # Given a conversation item put by a first change
    store.commit(guarded(started))
    # Then putting it again fails by its label, and nothing of that change is written
    again = guarded(started)
    with pytest.raises(GuardFailedError) as failed:
        store.commit(again)
    assert failed.value.label == "unique"
    assert store.load(again.snapshot.run, "Gate").snapshot is None
    # And an expectation of its attributes holds while they match, and fails once they do not
    store.commit(guarded(GuardedItem(CONVERSATION, "open", expect={"status": "open"})))
    closed = {"status": "closed"}
    store.commit(guarded(GuardedItem(CONVERSATION, "exists", expect={}, put=closed)))
    with pytest.raises(GuardFailedError, match="open"):
        store.commit(guarded(GuardedItem(CONVERSATION, "open", expect={"status": "open"})))
    # And another tenant's conversation of the same id is another item
    with pytest.raises(GuardFailedError):
        store.commit(guarded(GuardedItem(ConversationRef("acme", "c-1"), "exists", expect={})))


KEY = IdempotencyRef("mintInterruptToken", "principal:default:alice", "k-1", "fingerprint")


def kept(answered_at: int, body: str = "{}") -> StoredAnswer:
    return StoredAnswer("fingerprint", 201, body, "application/json", answered_at + 24 * 3600)


def test_a_key_keeps_its_first_answer_until_its_24_hours_are_over(store: Any) -> None:
    # Given a key answered at t
    t = 1_800_000_000
    assert store.save_answer(KEY, kept(t, "first")) is True
    # Then another answer within 24 hours is refused, on its own or in a change
    assert store.save_answer(KEY, kept(t + 60, "second")) is False
    with pytest.raises(ConcurrentUpdateError):
        store.commit(replace(first_change(), answer=(KEY, kept(t + 60, "second"))))
    assert store.load(RUN, "Gate", KEY).answer == kept(t, "first")
    # And once they are over (TTL may not have deleted it yet), a new answer takes the key
    assert store.save_answer(KEY, kept(t + 24 * 3600, "later")) is True
    assert store.load(RUN, "Gate", KEY).answer.body == "later"
    store.commit(replace(first_change(), answer=(KEY, kept(t + 48 * 3600, "in a change"))))
    assert store.load(RUN, "Gate", KEY).answer.body == "in a change"


def test_a_moved_run_is_a_conflict_even_when_a_guard_fails_too(store: Any) -> None:
    # Given a run committed, and a change planned on a stale read that also expects a missing item
    store.commit(first_change())
    stale = replace(first_change(), guarded=(GuardedItem(CONVERSATION, "open", expect={"status": "open"}),))
    # Then it is a conflict (re-read and plan again), not the guard's refusal: the guard may hold then
    with pytest.raises(ConcurrentUpdateError):
        store.commit(stale)
