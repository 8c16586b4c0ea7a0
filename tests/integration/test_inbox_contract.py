"""One contract, two implementations of the Inbox port: in memory (the fake the use-case tests read)
and on DynamoDB (the sparse index and the receipts, on moto): the same order, the same pages, the same
filters, and an interrupt that ends leaves the pending list in the commit that ends it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import boto3
import pytest

from tests.fakes.memory import MemoryInbox, MemoryStore
from waitgate.adapters.dynamodb_inbox import DynamoDbInbox
from waitgate.adapters.dynamodb_store import DynamoDbStore
from waitgate.run.inbox_records import InboxFilter
from waitgate.run.records import DecisionReceipt, InterruptRecord, RunChange, RunRef, RunSnapshot


@pytest.fixture(params=["memory", "dynamodb"])
def tables(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    if request.param == "memory":
        memory = MemoryStore()
        return memory, MemoryInbox(memory)
    table_name = request.getfixturevalue("table_name")
    client = boto3.client("dynamodb", region_name="us-east-1")
    return DynamoDbStore(client, table_name), DynamoDbInbox(client, table_name)


def record(
    run_id: str, *, deadline: str | None, requested: str, kind: str = "approval", tenant: str = "default"
) -> InterruptRecord:
    return InterruptRecord(
        run=RunRef(tenant, run_id),
        node_id="Gate",
        interrupt_id=f"01{run_id.upper():0>24}"[-26:],
        kind=kind,
        key="k",
        payload={"kind": kind, "key": "k", "data": {"title": run_id}},
        task_token="secret-task-token",
        requested_at=requested,
        deadline=deadline,
    )


def suspend(store: Any, interrupt: InterruptRecord) -> None:
    snapshot = replace(RunSnapshot.new(interrupt.run), status="waiting-approval", current_node_id="Gate")
    store.commit(RunChange(snapshot=snapshot, interrupt=interrupt))


def end(store: Any, interrupt: InterruptRecord, receipts: tuple[DecisionReceipt, ...] = ()) -> None:
    view = store.load(interrupt.run, "Gate")
    resolved = replace(view.interrupt, status="resolved", version=view.interrupt.version + 1, resume_value={})
    change = RunChange(
        snapshot=view.snapshot, interrupt=resolved, expected_interrupt_version=1, receipts=receipts
    )
    store.commit(change)


def every_page(inbox: Any, page: InboxFilter) -> list[list[str]]:
    """Each page's run ids, following `next`. A page that examined `limit` items may have a `next`
    even when nothing follows (DynamoDB's LastEvaluatedKey may; moto's does not): that empty last page
    is left out, the only latitude the contract allows."""
    pages, cursor = [], None
    while True:
        found = inbox.pending(replace(page, cursor=cursor))
        pages.append([e.run.run_id for e in found.entries])
        if found.next is None:
            return pages[:-1] if len(pages) > 1 and pages[-1] == [] else pages
        cursor = found.next


def test_pending_by_deadline_then_age_in_pages_of_what_was_examined(tables: tuple[Any, Any]) -> None:
    store, inbox = tables
    # Given four pending interrupts (two with deadlines, in another order than requested) and another tenant's
    suspend(store, record("none-old", deadline=None, requested="2026-11-30T09:00:00.000Z"))
    suspend(store, record("late", deadline="2026-11-30T12:00:00.000Z", requested="2026-11-30T09:01:00.000Z"))
    suspend(
        store, record("early", deadline="2026-11-30T11:00:00+00:00", requested="2026-11-30T09:02:00.000Z")
    )
    suspend(store, record("none-new", deadline=None, requested="2026-11-30T09:03:00.000Z", kind="custom"))
    suspend(store, record("acme", deadline=None, requested="2026-11-30T09:00:00.000Z", tenant="acme"))
    # Then pages of 2 list them by deadline, none last, then age; the last full page still says next
    assert every_page(inbox, InboxFilter("default", 2)) == [["early", "late"], ["none-old", "none-new"]]
    assert every_page(inbox, InboxFilter("default", 10)) == [["early", "late", "none-old", "none-new"]]
    # And filters apply to what a page examined: a page may be short and still have a next
    assert every_page(inbox, InboxFilter("default", 2, kind="custom")) == [[], ["none-new"]]
    assert every_page(inbox, InboxFilter("default", 10, run_id="late")) == [["late"]]
    assert every_page(inbox, InboxFilter("acme", 10)) == [["acme"]]
    # And each is what the inbox lists of it: its title and terms, never its payload or task token
    entries = inbox.pending(InboxFilter("default", 10)).entries
    assert [e.summary.title for e in entries] == ["early", "late", "none-old", "none-new"]
    assert all(not hasattr(e, "payload") and not hasattr(e, "task_token") for e in entries)


def test_an_ended_interrupt_leaves_the_list_and_its_receipts_list_it(tables: tuple[Any, Any]) -> None:
    store, inbox = tables
    first = record("first", deadline=None, requested="2026-11-30T09:00:00.000Z")
    second = record("second", deadline=None, requested="2026-11-30T09:01:00.000Z")
    suspend(store, first)
    suspend(store, second)
    receipt = DecisionReceipt(
        "alice", first.run, "Gate", first.interrupt_id, "approval", "first", first.requested_at,
        "2026-11-30T10:00:00.000Z", "accept", {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"},
    )  # fmt: skip
    end(store, first, (receipt,))
    assert [e.run.run_id for e in inbox.pending(InboxFilter("default", 10)).entries] == ["second"]
    decided = inbox.decided("alice", InboxFilter("default", 10))
    assert decided.receipts == (receipt,) and decided.next is None
    assert inbox.decided("ben", InboxFilter("default", 10)).receipts == ()
