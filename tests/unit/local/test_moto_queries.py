"""local.patches.moto_queries: a Query on moto reads its partition (or its index's items) instead of
the whole table sorted, and answers exactly what it answered before: the same items, in the same order,
paged at the same keys, for table Queries and a sparse GSI's, forwards and backwards."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from local.patches import moto_queries

TABLE = "queries"


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(
            TableName=TABLE,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": name, "AttributeType": "S"} for name in ("pk", "sk", "shard", "due")
            ],
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            GlobalSecondaryIndexes=[
                {
                    "IndexName": "Due",
                    "KeySchema": [
                        {"AttributeName": "shard", "KeyType": "HASH"},
                        {"AttributeName": "due", "KeyType": "RANGE"},
                    ],
                    "Projection": {"ProjectionType": "KEYS_ONLY"},
                }
            ],
        )
        for run in range(12):
            for node in range(9):
                item = {"pk": {"S": f"RUN#{run:02d}"}, "sk": {"S": f"NODE#{node}"}, "n": {"N": str(node)}}
                if (run + node) % 3 == 0:  # sparse: a third of the items are in the index
                    item["shard"] = {"S": f"DUE#{node % 2}"}
                    item["due"] = {"S": f"2026-12-0{1 + run % 3}#{run:02d}{node}"}
                client.put_item(TableName=TABLE, Item=item)
        yield client


QUERIES: list[dict[str, Any]] = [
    {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "RUN#03"}}},
    {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "RUN#99"}}},
    {
        "KeyConditionExpression": "pk = :p AND begins_with(sk, :s)",
        "ExpressionAttributeValues": {":p": {"S": "RUN#07"}, ":s": {"S": "NODE#"}},
        "ScanIndexForward": False,
        "Limit": 4,
    },
    {
        "KeyConditionExpression": "pk = :p AND sk > :s",
        "FilterExpression": "n > :n",
        "ExpressionAttributeValues": {":p": {"S": "RUN#05"}, ":s": {"S": "NODE#2"}, ":n": {"N": "5"}},
    },
    {
        "IndexName": "Due",
        "KeyConditionExpression": "shard = :h AND due <= :d",
        "ExpressionAttributeValues": {":h": {"S": "DUE#0"}, ":d": {"S": "2026-12-02#~"}},
        "Limit": 5,
    },
    {
        "IndexName": "Due",
        "KeyConditionExpression": "shard = :h",
        "ExpressionAttributeValues": {":h": {"S": "DUE#1"}},
        "ScanIndexForward": False,
        "Limit": 3,
    },
]


def every_page(client: Any, query: dict[str, Any]) -> list[tuple[list[Any], Any]]:
    pages, start = [], None
    while True:
        answer = client.query(TableName=TABLE, **query, **({"ExclusiveStartKey": start} if start else {}))
        pages.append((answer["Items"], answer.get("LastEvaluatedKey")))
        start = answer.get("LastEvaluatedKey")
        if not start:
            return pages


def test_every_query_answers_as_it_did_before_the_patch(dynamodb: Any) -> None:
    # Given moto's own answers to each Query, every page of them
    from moto.dynamodb.models.table import Table

    original = Table.query
    before = [every_page(dynamodb, query) for query in QUERIES]
    assert any(items for pages in before for items, _ in pages)
    # When Queries read their partition or their index
    moto_queries.install()
    try:
        after = [every_page(dynamodb, query) for query in QUERIES]
    finally:
        Table.query = original  # (this test's moto only)
    # Then each answers the same items, in the same order, paged at the same keys
    assert after == before


def test_a_query_never_sorts_the_whole_table(dynamodb: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a table whose full sorted listing fails if anything asks for it
    from moto.dynamodb.models.table import Table

    original = Table.query
    moto_queries.install()

    def refused(self: Any) -> list[Any]:
        raise AssertionError("the whole table was listed and sorted for a Query")

    monkeypatch.setattr(Table, "all_items", refused)
    try:
        # When Queries of a partition and of the index run / Then they answer without it
        for query in QUERIES:
            every_page(dynamodb, query)
    finally:
        Table.query = original
