"""Delivering a committed ending on in-memory ports: inline after the resolver's commit, or by the
outbox for what was committed but not delivered; a gone task is recorded once, a failed send retried."""

from __future__ import annotations

import pytest

from tests.unit.service.world import CUSTOM, RUN, World
from waitgate.errors import DeliveryFailedError
from waitgate.run.optimistic import MAX_ATTEMPTS
from waitgate.run.records import InterruptRecord
from waitgate.run.workflow_errors import TIMED_OUT
from waitgate.service.deliver_resolution import (
    DELIVERED,
    TASK_GONE,
    deliver,
    deliver_undelivered,
    record_delivery,
)
from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
from waitgate.service.record_decision import DecisionDependencies, record_decision

VALUE = {"label": "ok"}


@pytest.fixture
def world() -> World:
    return World()


def undelivered(world: World) -> InterruptRecord:
    """A resolved interrupt whose inline send was throttled: committed, not delivered."""
    world.request(CUSTOM)
    world.workflow.unavailable.add("task-1")
    outcome = world.resolve(VALUE)
    assert (outcome.status, outcome.delivered) == ("resolved", False)
    world.workflow.unavailable.clear()
    record = world.interrupt()
    assert (record.status, record.delivered_at) == ("resolved", None)
    return record


def outbox(world: World, record: InterruptRecord) -> str:
    return deliver_undelivered(record.run, record.node_id, record.interrupt_id, world.delivery())


def test_inline_delivery_marks_the_item_without_an_event(world: World) -> None:
    # Given a resolved interrupt (its resolver's send failed), sent again inline
    record = undelivered(world)
    world.clock.advance(seconds=1)
    before = world.log()
    # When delivered inline
    assert deliver(record, world.delivery(), "inline") == "delivered"
    # Then the workflow has the resume value, the item is marked, and the log has nothing more
    assert world.workflow.successes == [("task-1", VALUE)]
    marked = world.interrupt()
    assert (marked.delivered_at, marked.delivery_outcome, marked.version) == (
        "2026-11-30T10:00:01.000Z",
        DELIVERED,
        record.version + 1,
    )
    assert world.log() == before


def test_the_outbox_delivers_what_was_committed_and_logs_it(world: World) -> None:
    record = undelivered(world)
    assert outbox(world, record) == "delivered"
    assert world.workflow.successes == [("task-1", VALUE)]
    event = world.log()[-1]
    assert (event.type, event.mode, event.payload) == (
        "interrupt.delivered",
        "debug",
        {"nodeId": "Gate", "interruptId": record.interrupt_id, "via": "outbox", "outcome": "success"},
    )
    assert world.interrupt().delivery_outcome == DELIVERED


def test_a_delivered_ending_is_not_delivered_again(world: World) -> None:
    # Given an interrupt resolved and delivered inline by its resolver
    world.request(CUSTOM)
    world.resolve(VALUE)
    record = world.interrupt()
    assert record.delivery_outcome == DELIVERED
    # When its stream record arrives (once or twice), Then nothing more is sent or written
    commits = world.store.commits
    assert outbox(world, record) == "already-delivered"
    assert outbox(world, record) == "already-delivered"
    assert world.workflow.successes == [("task-1", VALUE)]
    assert world.store.commits == commits


def test_the_outbox_leaves_a_pending_and_a_superseded_interrupt(world: World) -> None:
    # Given a pending interrupt, the outbox has nothing to deliver
    world.request(CUSTOM)
    pending = world.interrupt()
    assert outbox(world, pending) == "not-ended"
    # Given it was resolved and the node now holds a later interrupt, its record is superseded
    world.resolve(VALUE)
    world.request({**CUSTOM, "key": "again"}, token="task-2")
    assert outbox(world, pending) == "superseded"
    # And a record of a node that holds nothing is superseded too
    assert deliver_undelivered(RUN, "Elsewhere", pending.interrupt_id, world.delivery()) == "superseded"
    assert world.workflow.successes == [("task-1", VALUE)]


def test_the_outbox_fails_the_task_of_an_expired_interrupt(world: World) -> None:
    # Given an expiry whose send was throttled
    world.request({**CUSTOM, "timeoutMs": 1000})
    world.workflow.unavailable.add("task-1")
    world.clock.advance(seconds=1)
    record = world.interrupt()
    assert expire_interrupt(ExpiryRequest(RUN, "Gate", record.interrupt_id), world.delivery()) == "expired"
    world.workflow.unavailable.clear()
    # When the outbox delivers it, Then the task fails with InterruptTimedOut, logged as a failure
    assert outbox(world, world.interrupt()) == "delivered"
    assert [failure[:2] for failure in world.workflow.failures] == [("task-1", TIMED_OUT)]
    assert world.log()[-1].payload["outcome"] == "failure"


def test_a_task_that_is_gone_is_recorded_once_and_never_retried(world: World) -> None:
    # Given a committed resolution whose task timed out meanwhile
    record = undelivered(world)
    world.workflow.gone.add("task-1")
    # When the outbox delivers it, Then Step Functions' answer is recorded, with its reason
    assert outbox(world, record) == "task-gone"
    marked = world.interrupt()
    assert (marked.status, marked.delivery_outcome) == ("resolved", TASK_GONE)
    event = world.log()[-1]
    assert (event.type, event.mode, event.payload["reason"]) == (
        "interrupt.delivery_failed",
        "debug",
        "TaskTimedOut",
    )
    # And a second stream record sends nothing
    assert outbox(world, record) == "already-delivered"
    assert world.workflow.successes == []


def test_an_inline_send_to_a_gone_task_is_logged_as_a_failed_delivery(world: World) -> None:
    world.request(CUSTOM)
    world.workflow.gone.add("task-1")
    outcome = world.resolve(VALUE)
    assert (outcome.status, outcome.delivered) == ("resolved", False)
    assert world.interrupt().delivery_outcome == TASK_GONE
    assert world.log()[-1].payload["via"] == "inline"


def test_a_success_overwrites_an_earlier_task_gone(world: World) -> None:
    # Given the outbox's send raced the resolver's, lost (the task was just answered), and marked
    # the item task-gone first
    record = undelivered(world)
    record_delivery(record, world.delivery(), TASK_GONE, "outbox", "TaskTimedOut")
    assert world.interrupt().delivery_outcome == TASK_GONE
    # When the resolver's own successful send marks the item, Then the item says delivered
    world.clock.advance(seconds=1)
    assert deliver(record, world.delivery(), "inline") == "delivered"
    assert (world.interrupt().delivery_outcome, world.interrupt().delivered_at) == (
        DELIVERED,
        "2026-11-30T10:00:01.000Z",
    )


def test_a_success_recorded_by_the_outbox_overwrites_a_task_gone_too(world: World) -> None:
    record = undelivered(world)
    record_delivery(record, world.delivery(), TASK_GONE, "outbox", "TaskTimedOut")
    record_delivery(record, world.delivery(), DELIVERED, "outbox")
    assert world.interrupt().delivery_outcome == DELIVERED
    assert world.types()[-2:] == ["interrupt.delivery_failed", "interrupt.delivered"]


def test_a_task_gone_never_overwrites_a_success(world: World) -> None:
    # Given a delivered resolution
    record = undelivered(world)
    deliver(record, world.delivery(), "inline")
    delivered = world.interrupt()
    log = world.log()
    # When a losing send reports the task gone afterwards, Then the item and the log stay as they are
    record_delivery(record, world.delivery(), TASK_GONE, "outbox", "TaskTimedOut")
    assert world.interrupt() == delivered
    assert world.log() == log
    # And neither does a second success
    record_delivery(record, world.delivery(), DELIVERED, "outbox")
    assert world.interrupt() == delivered


def test_a_failed_send_marks_nothing_and_reaches_the_caller(world: World) -> None:
    # Given Step Functions is throttling
    record = undelivered(world)
    world.workflow.unavailable.add("task-1")
    commits, log = world.store.commits, world.log()
    # When the outbox tries, Then the failure reaches it (its batch is retried), and nothing is marked
    with pytest.raises(DeliveryFailedError):
        outbox(world, record)
    assert world.interrupt().delivered_at is None
    assert (world.store.commits, world.log()) == (commits, log)
    # And the next try, once Step Functions answers, delivers
    world.workflow.unavailable.clear()
    assert outbox(world, record) == "delivered"


def test_a_mark_right_after_the_commit_needs_no_read(world: World) -> None:
    # Given a task that is gone when the resolver delivers
    world.request(CUSTOM)
    world.workflow.gone.add("task-1")
    reads = world.store.reads
    # When resolved, Then the one read is the resolver's: the task-gone mark used what it committed
    world.resolve(VALUE)
    assert world.store.reads == reads + 1
    assert world.interrupt().delivery_outcome == TASK_GONE


def test_a_mark_on_what_moved_since_the_commit_reads_again(world: World) -> None:
    # Given the resolver's commit is followed by another write to the run before its task-gone mark
    world.request(CUSTOM)
    world.request({**CUSTOM, "key": "b"}, node="B", token="task-b")
    world.workflow.gone.add("task-1")
    world.store.race_next_write(lambda: None)  # the resolver's own commit goes through unraced
    world.store.race_next_write(lambda: world.resolve(VALUE, node="B"))
    # When resolved, Then the mark lost to that write, read again, and still recorded the outcome
    world.resolve(VALUE)
    assert world.interrupt().delivery_outcome == TASK_GONE
    assert world.interrupt("B").delivery_outcome == DELIVERED
    seqs = [event.seq for event in world.log()]
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_mark_for_an_interrupt_no_longer_at_its_node_writes_nothing(world: World) -> None:
    record = undelivered(world)
    world.request({**CUSTOM, "key": "again"}, token="task-2")
    commits = world.store.commits
    record_delivery(record, world.delivery(), TASK_GONE, "outbox", "TaskTimedOut")
    assert world.store.commits == commits
    assert world.interrupt().status == "pending"


def test_a_mark_that_keeps_losing_is_given_up_quietly(world: World) -> None:
    # Given a committed resolution whose task is gone, and a storm of writers on the run: every one
    # of the mark's attempts loses to another decision appended to the log
    record = undelivered(world)
    world.workflow.gone.add("task-1")
    for _ in range(MAX_ATTEMPTS):
        world.store.race_next_write(lambda: decide(world))
    # When the outbox delivers, Then the outcome is known but unrecorded, and nothing raises
    assert outbox(world, record) == "task-gone"
    assert world.interrupt().delivered_at is None
    # And the next stream record tries again and records it
    assert outbox(world, record) == "task-gone"
    assert world.interrupt().delivery_outcome == TASK_GONE


def decide(world: World) -> None:
    deps = DecisionDependencies(world.store, world.clock, 0.5)
    record_decision(
        {"runId": "run-1", "nodeId": "Agent", "decision": {"agentId": "a", "confidence": 1}}, deps
    )
