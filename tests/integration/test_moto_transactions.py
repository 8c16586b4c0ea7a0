"""TransactWriteItems on the patched moto (local.patches.moto_transactions): all or nothing, as
DynamoDB, with a rollback that copies the items a transaction names, never the whole table."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from moto.dynamodb.models.dynamo_type import Item

from local.patches.moto_atomicity import table_items
from tests.integration.conftest import create_table_from_template
from tests.integration.durability_faults import TableStream

ACCOUNT, REGION = "123456789012", "us-east-1"
SEEDED = 40


def key(pk: str, sk: str = "RUN") -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


@pytest.fixture
def table(dynamodb: Any) -> str:
    """The template's InterruptsTable (stream on) with SEEDED items."""
    name = create_table_from_template(dynamodb, "InterruptsTable", "waitgate-transactions-test")
    for start in range(0, SEEDED, 20):
        batch = [
            {"PutRequest": {"Item": {**key(f"p{n}"), "n": {"N": str(n)}}}} for n in range(start, start + 20)
        ]
        dynamodb.batch_write_item(RequestItems={name: batch})
    return name


def snapshot(name: str) -> list[dict[str, Any]]:
    return sorted(table_items(ACCOUNT, REGION, name), key=lambda item: (item["pk"]["S"], item["sk"]["S"]))


def four_writes(name: str, condition_of_the_last: str) -> list[dict[str, Any]]:
    """A new item, an update, a delete, then a condition check of p3 (passes on "attribute_exists")."""
    return [
        {"Put": {"TableName": name, "Item": {**key("new"), "n": {"N": "1"}}}},
        {
            "Update": {
                "TableName": name,
                "Key": key("p1"),
                "UpdateExpression": "SET n = :n, added = :a",
                "ExpressionAttributeValues": {":n": {"N": "100"}, ":a": {"S": "yes"}},
            }
        },
        {"Delete": {"TableName": name, "Key": key("p2")}},
        {
            "ConditionCheck": {
                "TableName": name,
                "Key": key("p3"),
                "ConditionExpression": f"{condition_of_the_last}(pk)",
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        },
    ]


def test_a_cancelled_transaction_changes_no_item_and_streams_nothing(dynamodb: Any, table: str) -> None:
    # Given a table of 40 items, read whole, and its stream read to its end
    before = snapshot(table)
    stream = TableStream(table)
    stream.next_batch()
    # When a transaction puts, updates and deletes, then fails its last condition
    with pytest.raises(ClientError) as cancelled:
        dynamodb.transact_write_items(TransactItems=four_writes(table, "attribute_not_exists"))
    # Then it is cancelled for that item, which comes back as it was
    assert cancelled.value.response["Error"]["Code"] == "TransactionCanceledException"
    reasons = cancelled.value.response["CancellationReasons"]
    assert [reason["Code"] for reason in reasons] == ["None", "None", "None", "ConditionalCheckFailed"]
    assert reasons[3]["Item"] == {**key("p3"), "n": {"N": "3"}}
    # And every item is as it was, the new one absent and the deleted one there, with no stream record
    assert snapshot(table) == before
    assert stream.next_batch()["Records"] == []


def test_a_transaction_naming_one_item_twice_changes_nothing(dynamodb: Any, table: str) -> None:
    # Given the table, and a transaction that updates p1 and then puts it
    before = snapshot(table)
    writes = [*four_writes(table, "attribute_exists")[:2], {"Put": {"TableName": table, "Item": key("p1")}}]
    # When it is sent / Then it is refused whole
    with pytest.raises(ClientError) as refused:
        dynamodb.transact_write_items(TransactItems=writes)
    assert refused.value.response["Error"]["Code"] == "ValidationException"
    assert snapshot(table) == before


def test_a_committed_transaction_writes_every_item_and_streams_each(dynamodb: Any, table: str) -> None:
    # Given the table and its stream read to its end
    stream = TableStream(table)
    stream.next_batch()
    # When the four writes commit
    dynamodb.transact_write_items(TransactItems=four_writes(table, "attribute_exists"))
    # Then the table holds their effects, and the stream one record for each write
    after = {item["pk"]["S"]: item for item in snapshot(table)}
    assert after["new"]["n"] == {"N": "1"} and "p2" not in after
    assert after["p1"] == {**key("p1"), "n": {"N": "100"}, "added": {"S": "yes"}}
    assert len(after) == SEEDED
    records = stream.next_batch()["Records"]
    assert [record["eventName"] for record in records] == ["INSERT", "MODIFY", "REMOVE"]


def test_a_transaction_copies_the_items_it_names_not_the_table(
    dynamodb: Any, table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given every copy of an item counted
    copies = []
    original = Item.__deepcopy__

    def counted(self: Item, memo: dict[int, Any]) -> Item:
        copies.append(self.hash_key.value)
        return original(self, memo)

    monkeypatch.setattr(Item, "__deepcopy__", counted)
    # When a four-item transaction is cancelled, and then commits, on the table of 40 items
    with pytest.raises(ClientError):
        dynamodb.transact_write_items(TransactItems=four_writes(table, "attribute_not_exists"))
    dynamodb.transact_write_items(TransactItems=four_writes(table, "attribute_exists"))
    # Then only the items named were copied (p1 also by moto's update, for its stream record's old image)
    assert set(copies) <= {"p1", "p2", "p3"}
    assert len(copies) <= 8
