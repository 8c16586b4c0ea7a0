"""A resolve says truly what happened to its commit (issue: no unknown outcomes).

The store's one transaction carries a ClientRequestToken and is sent again under it while its outcome
is in doubt; moto honours the token as DynamoDB does (local.patches.transaction_tokens). So a commit
that landed while its answer was lost resolves once and answers 200, and one that never got an answer
says 504 `outcome_unknown`, never 503 "nothing changed"."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError, ReadTimeoutError

from local.patches.transaction_tokens import request_digest
from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event, sample_event
from tests.support.links import BROWSER_ACCEPT, mint_event, token_event
from tests.support.run_reads import list_events_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
REGION = "us-east-1"


@pytest.fixture
def harness(environment: None) -> WorkflowHarness:
    return WorkflowHarness()


@pytest.fixture
def run(harness: WorkflowHarness) -> SuspendedRun:
    suspended = harness.suspend(APPROVAL)
    Handler("request_interrupt")(suspended.task_event)
    return suspended


@contextmanager
def answers_lost(times: int) -> Iterator[list[str]]:
    """The next `times` TransactWriteItems are applied by DynamoDB, and their answer never arrives."""
    from waitgate.wiring import composition

    lost: list[str] = []

    def lose(**_: Any) -> None:
        if len(lost) < times:
            lost.append("TransactWriteItems")
            raise ReadTimeoutError(endpoint_url="https://dynamodb")

    events = composition.aws_client("dynamodb").meta.events
    events.register("after-call.dynamodb.TransactWriteItems", lose)
    try:
        yield lost
    finally:
        events.unregister("after-call.dynamodb.TransactWriteItems", lose)


def resolved_events(run_id: str) -> list[dict[str, Any]]:
    answer = Handler("list_run_events")(list_events_event(run_id, mode="updates", after=0))
    assert answer["statusCode"] == 200, answer["body"]
    return [event for event in json.loads(answer["body"])["events"] if event["type"] == "interrupt.resolved"]


def keyed(event: dict[str, Any], key: str) -> dict[str, Any]:
    event["headers"] = {**event.get("headers", {}), "idempotency-key": key}
    return event


def test_a_commit_that_landed_while_its_answer_was_lost_answers_200_and_resolves_once(
    run: SuspendedRun, harness: WorkflowHarness
) -> None:
    # Given DynamoDB applies the resolve's commit and its answer is lost on the way back
    with answers_lost(times=1) as lost:
        # When alice resolves
        response = Handler("resolve_by_run")(http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}))
    # Then the repeat under the same token is answered as the commit it was: 200, resolved once
    assert lost == ["TransactWriteItems"]
    assert response["statusCode"] == 200, response["body"]
    assert json.loads(response["body"])["status"] == "resolved"
    assert len(resolved_events(run.run_id)) == 1
    # And the run goes on with that one answer
    ended = harness.wait_for_end(run.execution_arn)
    assert ended["status"] == "SUCCEEDED"
    assert json.loads(ended["output"])["action"] == "accept"


def test_a_commit_that_never_gets_an_answer_is_504_outcome_unknown_and_a_keyed_retry_says_what_happened(
    run: SuspendedRun,
) -> None:
    resolve = Handler("resolve_by_run")
    # Given every answer to the commit and to its repeats is lost, though the first one landed
    with answers_lost(times=99):
        response = resolve(keyed(http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}), "k-1"))
    # Then the answer says the outcome is unknown — not 503, which would say nothing changed
    body = json.loads(response["body"])
    assert (response["statusCode"], body["code"]) == (504, "outcome_unknown")
    assert response["headers"]["Content-Type"] == "application/problem+json"
    # And the same request, retried with its Idempotency-Key, learns that it was recorded
    again = resolve(keyed(http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}), "k-1"))
    assert again["statusCode"] == 200, again["body"]
    assert again["headers"].get("Idempotent-Replayed") == "true"
    assert len(resolved_events(run.run_id)) == 1


def test_moto_applies_a_repeated_token_once_and_refuses_it_with_other_parameters(aws: None) -> None:
    client = boto3.client("dynamodb", region_name=REGION)
    client.create_table(
        TableName="tokens",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )

    def put(value: str) -> list[dict[str, Any]]:
        item = {"pk": {"S": "one"}, "value": {"S": value}}
        return [
            {"Put": {"TableName": "tokens", "Item": item, "ConditionExpression": "attribute_not_exists(pk)"}}
        ]

    client.transact_write_items(TransactItems=put("a"), ClientRequestToken="token-1")
    # The same request again: success, and nothing applied twice (its condition would fail)
    client.transact_write_items(TransactItems=put("a"), ClientRequestToken="token-1")
    # Another request under the same token: DynamoDB's IdempotentParameterMismatchException
    with pytest.raises(ClientError) as raised:
        client.transact_write_items(TransactItems=put("b"), ClientRequestToken="token-1")
    assert raised.value.response["Error"]["Code"] == "IdempotentParameterMismatchException"
    # A new token is a new request: its condition fails on the committed item
    with pytest.raises(ClientError) as cancelled:
        client.transact_write_items(TransactItems=put("a"), ClientRequestToken="token-2")
    assert cancelled.value.response["Error"]["Code"] == "TransactionCanceledException"
    item = client.get_item(TableName="tokens", Key={"pk": {"S": "one"}})["Item"]
    assert item["value"] == {"S": "a"}


def test_the_same_request_is_the_same_whatever_its_members_order() -> None:
    first: Callable[[], dict[str, Any]] = lambda: {"TransactItems": [{"Put": {"a": 1, "b": 2}}]}  # noqa: E731
    assert request_digest({**first(), "ClientRequestToken": "x"}) == request_digest(
        {"ClientRequestToken": "y", "TransactItems": [{"Put": {"b": 2, "a": 1}}]}
    )


def test_a_person_whose_answer_got_no_confirmation_is_told_so_not_that_nothing_was_recorded(
    run: SuspendedRun,
) -> None:
    minted = Handler("mint_token")(mint_event(run.run_id, "Interrupt", {"intent": "resolve", "sub": "alice"}))
    token = json.loads(minted["body"])["token"]
    with answers_lost(times=99):
        page = Handler("resolve_by_token")(
            token_event(token, method="POST", body={"resumeValue": ACCEPT}, accept=BROWSER_ACCEPT)
        )
    assert page["statusCode"] == 504
    assert page["headers"]["Content-Type"].startswith("text/html")
    assert "may not have been recorded" in page["body"]
    assert "Nothing was recorded" not in page["body"]
    # And opening the link again shows what happened: the answer had landed, the request is decided
    again = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    assert again["statusCode"] == 409 and "Already resolved" in again["body"]
