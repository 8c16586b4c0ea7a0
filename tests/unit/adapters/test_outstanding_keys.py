"""The reconciler's index keys on a node item (adapters: dynamodb_keys, dynamodb_items): on it while
something is owed, gone once delivered, in PARKED when parked; given to items kept from before."""

from __future__ import annotations

from dataclasses import replace

from waitgate.adapters.dynamodb_items import interrupt_from_item, interrupt_item, outstanding_index_keys
from waitgate.adapters.dynamodb_keys import OUTSTANDING_PK, OUTSTANDING_SK
from waitgate.run.reconciliation import shard_of
from waitgate.run.records import InterruptRecord, RunRef

PENDING = InterruptRecord(
    run=RunRef("default", "run-1"),
    node_id="Gate",
    interrupt_id="01INTERRUPT1",
    kind="custom",
    key="k",
    payload={"kind": "custom", "key": "k", "data": {"customKind": "x"}},
    task_token="token",
    requested_at="2026-12-01T12:00:00.000Z",
    execution_arn="arn:aws:states:us-east-1:123456789012:execution:m:run-1",
    check_at="2026-12-01T13:00:00.000Z",
    noticed_at="2026-12-01T12:00:01.000Z",
)


def test_a_pending_interrupt_is_in_its_shard_due_at_its_next_look() -> None:
    item = interrupt_item(PENDING)
    assert item[OUTSTANDING_PK] == {"S": f"DUE#{shard_of('01INTERRUPT1')}"}
    assert item[OUTSTANDING_SK] == {"S": "2026-12-01T13:00:00.000Z#01INTERRUPT1"}
    assert interrupt_from_item(item) == PENDING  # noticedAt, checkAt, executionArn kept both ways


def test_a_delivered_interrupt_leaves_the_index_and_a_parked_one_moves_to_parked() -> None:
    resolved = replace(PENDING, status="resolved", resolved_at="2026-12-01T12:05:00.000Z", resume_value={})
    assert interrupt_item(resolved)[OUTSTANDING_SK] == {"S": "2026-12-01T12:05:00.000Z#01INTERRUPT1"}
    delivered = replace(resolved, delivered_at="2026-12-01T12:05:01.000Z", delivery_outcome="delivered")
    assert OUTSTANDING_PK not in interrupt_item(delivered)
    parked = interrupt_item(replace(delivered, delivery_outcome="refused"))
    assert parked[OUTSTANDING_PK] == {"S": "PARKED"}
    assert OUTSTANDING_PK not in interrupt_item(replace(PENDING, status="cancelled"))


def test_an_item_kept_from_before_the_index_gets_its_keys_and_no_other_item_does() -> None:
    kept = {k: v for k, v in interrupt_item(PENDING).items() if k not in (OUTSTANDING_PK, OUTSTANDING_SK)}
    assert outstanding_index_keys(kept) == {
        OUTSTANDING_PK: interrupt_item(PENDING)[OUTSTANDING_PK],
        OUTSTANDING_SK: interrupt_item(PENDING)[OUTSTANDING_SK],
    }
    assert outstanding_index_keys(interrupt_item(PENDING)) == {}  # it has them already
    assert outstanding_index_keys({"pk": {"S": "RUN#default#run-1"}, "sk": {"S": "RUN"}}) == {}
