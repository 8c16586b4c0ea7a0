"""AWS failures are answered by what they mean: a refused write is never retried as a conflict,
throttling is 503 `unavailable` with Retry-After — nothing changed — and a commit that got no answer
(a timeout, a dropped connection), even to its repeats under its ClientRequestToken, is 504
`outcome_unknown`: it may have landed, so it is never said to have changed nothing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from botocore.exceptions import ClientError, ConnectionClosedError, ReadTimeoutError

from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler, http_event, sample_event
from tests.support.links import mint_event, token_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


def cancelled(*codes: str) -> ClientError:
    return ClientError(
        {
            "Error": {"Code": "TransactionCanceledException", "Message": "cancelled"},
            "CancellationReasons": [{"Code": code} for code in codes],
        },
        "TransactWriteItems",
    )


def throttled() -> ClientError:
    return ClientError({"Error": {"Code": "ProvisionedThroughputExceededException"}}, "TransactWriteItems")


FAILURES: dict[str, Callable[[], Exception]] = {
    "throttled": throttled,
    "throttled transaction": lambda: cancelled("None", "ThrottlingError"),
}
NO_ANSWER: dict[str, Callable[[], Exception]] = {
    "read timeout": lambda: ReadTimeoutError(endpoint_url="https://dynamodb"),
    "connection closed": lambda: ConnectionClosedError(endpoint_url="https://dynamodb"),
}


@pytest.fixture
def run_id(environment: None) -> str:
    harness = WorkflowHarness()
    run = harness.suspend(APPROVAL)
    Handler("request_interrupt")(run.task_event)
    return run.run_id


@contextmanager
def failing_writes(make_error: Callable[[], Exception]) -> Iterator[list[str]]:
    """While open, every TransactWriteItems of the handlers' client fails with `make_error()`; the
    attempts are counted."""
    from waitgate.wiring import composition

    attempts: list[str] = []

    def fail(**_: Any) -> None:
        attempts.append("TransactWriteItems")
        raise make_error()

    events = composition.aws_client("dynamodb").meta.events
    events.register("before-send.dynamodb.TransactWriteItems", fail)
    try:
        yield attempts
    finally:
        events.unregister("before-send.dynamodb.TransactWriteItems", fail)


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_a_transient_failure_is_503_with_retry_after(run_id: str, failure: str) -> None:
    resolve = Handler("resolve_by_run")
    with failing_writes(FAILURES[failure]):
        # When the store is throttled or does not answer during a resolve
        response = resolve(http_event(run_id, "Interrupt", {"resumeValue": ACCEPT}))
    # Then 503 unavailable, problem+json, with Retry-After
    body = json.loads(response["body"])
    assert (response["statusCode"], body["code"]) == (503, "unavailable")
    assert response["headers"]["Content-Type"] == "application/problem+json"
    assert int(response["headers"]["Retry-After"]) >= 1
    # And nothing changed: the same request, retried, resolves
    assert resolve(http_event(run_id, "Interrupt", {"resumeValue": ACCEPT}))["statusCode"] == 200


@pytest.mark.parametrize("failure", sorted(NO_ANSWER))
def test_a_commit_without_an_answer_is_504_outcome_unknown_never_503(run_id: str, failure: str) -> None:
    resolve = Handler("resolve_by_run")
    with failing_writes(NO_ANSWER[failure]) as attempts:
        # When no attempt of the commit, nor of its repeats under the same token, gets an answer
        response = resolve(http_event(run_id, "Interrupt", {"resumeValue": ACCEPT}))
    # Then the answer says the outcome is not known (it may have landed), with Retry-After
    body = json.loads(response["body"])
    assert (response["statusCode"], body["code"]) == (504, "outcome_unknown")
    assert int(response["headers"]["Retry-After"]) >= 1
    assert len(attempts) > 1  # sent again, under its token, before saying so
    # And here nothing had landed (no attempt reached the table): the same request resolves
    assert resolve(http_event(run_id, "Interrupt", {"resumeValue": ACCEPT}))["statusCode"] == 200


@pytest.mark.parametrize(("failure", "status"), [("throttled", 503), ("read timeout", 504)])
def test_a_transient_failure_on_a_link_carries_the_token_headers(
    run_id: str, failure: str, status: int
) -> None:
    minted = Handler("mint_token")(mint_event(run_id, "Interrupt", {"intent": "resolve", "sub": "alice"}))
    token = json.loads(minted["body"])["token"]
    resolve_by_token = Handler("resolve_by_token")
    with failing_writes({**FAILURES, **NO_ANSWER}[failure]):
        response = resolve_by_token(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    assert response["statusCode"] == status
    headers = response["headers"]
    assert (headers["Cache-Control"], headers["Referrer-Policy"]) == ("no-store", "no-referrer")
    assert "Retry-After" in headers


def test_a_refused_write_is_not_retried_as_a_conflict(run_id: str) -> None:
    # Given a store that refuses the write itself (a malformed or oversized item), not a condition
    with failing_writes(lambda: cancelled("None", "ValidationError")) as attempts:
        response = Handler("resolve_by_run")(http_event(run_id, "Interrupt", {"resumeValue": ACCEPT}))
    # Then one attempt, and a 500 that does not pretend to be a concurrent update
    body = json.loads(response["body"])
    assert (response["statusCode"], body["code"], len(attempts)) == (500, "internal", 1)
    assert "Concurrent" not in body["title"]
