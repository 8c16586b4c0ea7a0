"""A commit's outcome is known or said to be unknown: one ClientRequestToken per transaction, sent
again while the outcome is in doubt, and never a "nothing changed" after an attempt that may have
landed."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError, ConnectTimeoutError, ReadTimeoutError

from waitgate.adapters.dynamodb_transactions import REPEATS, may_have_landed, transact_once
from waitgate.errors import OutcomeUnknownError

ITEMS = [{"Put": {"TableName": "t", "Item": {"pk": {"S": "a"}, "sk": {"S": "b"}}}}]


def client_error(code: str, status: int = 400, retried: int = 0) -> ClientError:
    metadata = {"HTTPStatusCode": status, "RetryAttempts": retried}
    return ClientError({"Error": {"Code": code}, "ResponseMetadata": metadata}, "TransactWriteItems")


class ScriptedDynamoDb:
    """Answers each TransactWriteItems with the next scripted outcome (an exception, or None: success)."""

    def __init__(self, *outcomes: Exception | None) -> None:
        self.outcomes = list(outcomes)
        self.requests: list[dict[str, Any]] = []

    def transact_write_items(self, **request: Any) -> dict[str, Any]:
        self.requests.append(request)
        outcome = self.outcomes.pop(0)
        if outcome is not None:
            raise outcome
        return {}


def commit(client: ScriptedDynamoDb) -> None:
    transact_once(client, ITEMS, sleep=lambda _: None)


def test_a_timed_out_commit_is_sent_again_under_the_same_token_and_its_success_is_the_outcome() -> None:
    client = ScriptedDynamoDb(ReadTimeoutError(endpoint_url="https://dynamodb"), None)
    commit(client)
    tokens = {request["ClientRequestToken"] for request in client.requests}
    assert len(client.requests) == 2 and len(tokens) == 1
    assert all(request["TransactItems"] == ITEMS for request in client.requests)


def test_a_commit_that_never_gets_an_answer_is_an_unknown_outcome_not_a_503() -> None:
    client = ScriptedDynamoDb(*[ReadTimeoutError(endpoint_url="https://dynamodb")] * (REPEATS + 1))
    with pytest.raises(OutcomeUnknownError) as raised:
        commit(client)
    assert (raised.value.status, raised.value.code) == (504, "outcome_unknown")
    assert len(client.requests) == REPEATS + 1


def test_throttled_with_nothing_in_doubt_is_raised_at_once_for_a_503() -> None:
    throttled = client_error("ProvisionedThroughputExceededException")
    client = ScriptedDynamoDb(throttled)
    with pytest.raises(ClientError) as raised:
        commit(client)
    assert raised.value is throttled and len(client.requests) == 1


def test_a_connection_never_made_applied_nothing() -> None:
    never = ConnectTimeoutError(endpoint_url="https://dynamodb")
    client = ScriptedDynamoDb(never)
    with pytest.raises(ConnectTimeoutError):
        commit(client)
    assert len(client.requests) == 1


def test_after_a_timeout_a_conflict_is_known_the_first_attempt_did_not_land() -> None:
    # DynamoDB answers the repeat of a committed token with success; a cancellation means it was not
    conflict = client_error("TransactionCanceledException")
    client = ScriptedDynamoDb(ReadTimeoutError(endpoint_url="https://dynamodb"), conflict)
    with pytest.raises(ClientError) as raised:
        commit(client)
    assert raised.value is conflict


def test_after_a_timeout_throttling_and_in_progress_keep_it_in_doubt() -> None:
    client = ScriptedDynamoDb(
        ReadTimeoutError(endpoint_url="https://dynamodb"),
        client_error("TransactionInProgressException"),
        client_error("ThrottlingException"),
    )
    with pytest.raises(OutcomeUnknownError):
        commit(client)


def test_a_server_error_may_have_landed() -> None:
    assert may_have_landed(client_error("InternalServerError", status=500))
    assert not may_have_landed(client_error("ValidationException"))
    assert may_have_landed(None, status=503)
    assert not may_have_landed(None, status=400)


def test_two_commits_never_share_a_token() -> None:
    client = ScriptedDynamoDb(None, None)
    commit(client)
    commit(client)
    assert client.requests[0]["ClientRequestToken"] != client.requests[1]["ClientRequestToken"]
    assert all(1 <= len(request["ClientRequestToken"]) <= 36 for request in client.requests)
