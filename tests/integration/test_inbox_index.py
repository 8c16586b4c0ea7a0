"""What the inbox's index holds, on moto with the table built from template.yaml: a bounded summary of
each pending interrupt, never its payload; an interrupt the index holds no usable summary of (written
before the summary, or an approval whose approvers do not fit it, or a summary it cannot trust) is
read whole and listed by its own fields, so eligibility fails closed; and the former index, which
copied whole items, still lists the same during the deploy that upgrades from it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import boto3
import pytest

from tests.integration.kind_steps import KindSteps
from tests.integration.test_inbox_flow import approval, indexed, listed

SUMMARY_BOUND = 4096


def size(item: dict[str, Any]) -> int:
    """An item's size as DynamoDB counts one of string attributes: names and values, UTF-8 bytes."""
    assert all(set(value) == {"S"} for value in item.values()), item
    return sum(len(name.encode()) + len(value["S"].encode()) for name, value in item.items())


def node_key(run_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "NODE#Interrupt"}}


def test_a_large_payload_gives_a_small_index_item_that_lists_as_before(
    steps: KindSteps, dynamodb: Any, table_name: str, dynamodb_calls: list[str]
) -> None:
    # Given an approval with a 60 KB description (the payload's budget is 64 KB), voted on once
    description = "Release notes. " * 4000
    run, _ = steps.suspend(
        approval(approversList=["alice", "ben"], requiredApprovals=2, description=description)
    )
    vote = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z", "feedback": "Fine"}
    assert steps.resolve(run.run_id, "Interrupt", vote)[0] == 202
    # Then its index item holds no payload, votes, asks or task token: a summary under 4 KB
    (entry,) = indexed(dynamodb, table_name)
    node = dynamodb.get_item(TableName=table_name, Key=node_key(run.run_id))["Item"]
    assert not {"payload", "votes", "asks", "key", "version", "taskToken"} & set(entry)
    assert len(entry["inboxSummary"]["S"].encode()) <= SUMMARY_BOUND and size(entry) < 1024
    assert len(node["payload"]["S"]) > 60_000
    # And the inbox lists it from the index alone, as it listed it before
    dynamodb_calls.clear()
    status, body = listed(steps)
    assert status == 200 and dynamodb_calls == ["Query"], dynamodb_calls
    (item,) = body["items"]
    assert (item["title"], item["matchedBy"], item["myVote"]) == (
        "Ship it?",
        "list",
        {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z", "feedback": "Fine"},
    )
    assert item["progress"] == {
        "approvals": 1,
        "requiredApprovals": 2,
        "rejections": 0,
        "rejectionsNeeded": 1,
    }
    assert "myVote" not in listed(steps, sub="ben")[1]["items"][0]


def test_approvers_that_do_not_fit_the_summary_are_checked_on_the_node_item(
    steps: KindSteps, dynamodb: Any, table_name: str, dynamodb_calls: list[str]
) -> None:
    # Given an approval naming ~8 KB of approvers, alice last: its summary cannot hold them whole
    many = [f"approver-{n:03d}-{'x' * 180}" for n in range(40)]
    run, _ = steps.suspend(approval(approversList=[*many, "alice"]))
    (entry,) = indexed(dynamodb, table_name)
    assert json.loads(entry["inboxSummary"]["S"]) == {"v": 1, "title": "Ship it?", "readItem": True}
    # Then alice's page reads that one node item, and lists it by the list that names her
    dynamodb_calls.clear()
    (item,) = listed(steps)[1]["items"]
    assert dynamodb_calls == ["Query", "BatchGetItem"], dynamodb_calls
    assert (item["runId"], item["matchedBy"]) == (run.run_id, "list")
    # And nobody the list does not name sees it (fails closed); runs:read sees it without matchedBy
    assert listed(steps, sub="mallory")[1]["items"] == []
    (seen,) = listed(steps, sub="mallory", scope="runs:read", eligible="any")[1]["items"]
    assert "matchedBy" not in seen


@pytest.mark.parametrize(
    "stored",
    [
        "not json",
        '{"v": 9, "title": "Ship it?"}',
        '{"v": 1, "title": "Ship it?"}',  # an approval's summary without its terms: never "open"
    ],
)
def test_a_summary_the_inbox_cannot_trust_is_never_listed_by(
    steps: KindSteps, dynamodb: Any, table_name: str, dynamodb_calls: list[str], stored: str
) -> None:
    run, _ = steps.suspend(approval(approversList=["alice"]))
    dynamodb.update_item(
        TableName=table_name,
        Key=node_key(run.run_id),
        UpdateExpression="SET inboxSummary = :s",
        ExpressionAttributeValues={":s": {"S": stored}},
    )
    assert listed(steps, sub="mallory")[1]["items"] == []
    dynamodb_calls.clear()
    assert [i["matchedBy"] for i in listed(steps)[1]["items"]] == ["list"]
    assert dynamodb_calls == ["Query", "BatchGetItem"], dynamodb_calls


def test_an_interrupt_written_before_the_summary_is_read_whole_until_the_backfill(
    steps: KindSteps, dynamodb: Any, table_name: str, dynamodb_calls: list[str]
) -> None:
    from waitgate.adapters.dynamodb_inbox_backfill import backfill_pending_index

    # Given a pending approval as the version before the summary wrote it (its index keys, no summary)
    run, _ = steps.suspend(approval(approversList=["alice"]))
    dynamodb.update_item(
        TableName=table_name, Key=node_key(run.run_id), UpdateExpression="REMOVE inboxSummary"
    )
    # Then the inbox lists it all the same, reading its node item
    dynamodb_calls.clear()
    (item,) = listed(steps)[1]["items"]
    assert (item["runId"], item["matchedBy"], dynamodb_calls) == (
        run.run_id,
        "list",
        ["Query", "BatchGetItem"],
    )
    # When the backfill runs, Then it gets its summary, and the inbox lists it from the index alone
    assert backfill_pending_index(dynamodb, table_name) == 1
    assert "inboxSummary" in indexed(dynamodb, table_name)[0]
    dynamodb_calls.clear()
    assert [i["runId"] for i in listed(steps)[1]["items"]] == [run.run_id] and dynamodb_calls == ["Query"]
    assert backfill_pending_index(dynamodb, table_name) == 0


def test_the_former_index_lists_the_same_during_the_deploy_that_upgrades_from_it(aws: None) -> None:
    from tests.integration.conftest import create_table_from_template
    from tests.integration.test_inbox_contract import record, suspend
    from waitgate.adapters.dynamodb_inbox import DynamoDbInbox
    from waitgate.adapters.dynamodb_store import DynamoDbStore
    from waitgate.run.inbox_records import InboxFilter

    # Given the table as the upgrading deploy has it (FormerPendingIndex=keep): both indexes
    client = boto3.client("dynamodb", region_name="us-east-1")
    table = create_table_from_template(
        client, "InterruptsTable", "waitgate-upgrade", {"FormerPendingIndex": "keep"}
    )
    indexes = {
        i["IndexName"] for i in client.describe_table(TableName=table)["Table"]["GlobalSecondaryIndexes"]
    }
    assert indexes == {"InboxByDeadline", "PendingByDeadline", "OutstandingByDue"}
    store = DynamoDbStore(client, table)
    early = record("early", deadline="2026-11-30T11:00:00.000Z", requested="2026-11-30T09:00:00.000Z")
    suspend(
        store, replace(early, payload={**early.payload, "data": {"title": "t", "approversList": ["alice"]}})
    )
    suspend(store, record("later", deadline=None, requested="2026-11-30T09:01:00.000Z", kind="custom"))
    # Then the former index (whole items) and the new one (summaries) give the same entries
    page = InboxFilter("default", 10)
    former = DynamoDbInbox(client, table, "PendingByDeadline").pending(page)
    assert former == DynamoDbInbox(client, table).pending(page)
    assert [e.run.run_id for e in former.entries] == ["early", "later"]


def test_a_page_asked_of_an_index_still_being_built_is_503_nothing_changed(steps: KindSteps) -> None:
    """DynamoDB refuses a Query of a GSI it is still backfilling (moto builds one at once): as AWS
    answers it, through botocore's own event, on the handlers' client."""
    from waitgate.wiring import composition

    class Answer:
        status_code = 400

    def backfilling(**_: Any) -> tuple[Any, dict[str, Any]]:
        message = "Cannot read from backfilling global secondary index: InboxByDeadline"
        error = {"Code": "ValidationException", "Message": message}
        return Answer(), {"Error": error, "ResponseMetadata": {"HTTPStatusCode": 400}}

    steps.suspend(approval(approversList=["alice"]))
    client = composition.aws_client("dynamodb")
    client.meta.events.register("before-call.dynamodb.Query", backfilling)
    try:
        status, problem = listed(steps)
    finally:
        client.meta.events.unregister("before-call.dynamodb.Query", backfilling)
    assert (status, problem["code"]) == (503, "unavailable"), problem
