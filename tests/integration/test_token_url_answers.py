"""Every answer of the token handlers carries the token headers — a body too large, an unknown route
and a bug's 500 included — and none of them changes anything."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from tests.integration.test_token_surfaces import minted, new_instances, snapshot_and_events, suspended
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler
from tests.support.links import BROWSER_ACCEPT, generated_secret, token_event

ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
TOKEN_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


@pytest.fixture
def harness(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkflowHarness]:
    secrets = boto3.client("secretsmanager", region_name="us-east-1")
    secret = secrets.create_secret(Name="waitgate-token-secret", SecretString=generated_secret())
    monkeypatch.setenv("TOKEN_SECRET_ARN", secret["ARN"])
    new_instances()
    yield WorkflowHarness()
    new_instances()


def assert_token_headers(answer: dict[str, Any], status: int, content_type: str) -> None:
    assert answer["statusCode"] == status, answer["body"]
    headers = answer["headers"]
    assert headers["Content-Type"].startswith(content_type)
    assert {name: headers.get(name) for name in TOKEN_HEADERS} == TOKEN_HEADERS


def failing(handler: Handler, wiring: str) -> Handler:
    """The handler with one of its collaborators broken: what a bug looks like from the outside."""

    def broken() -> Any:
        raise RuntimeError("a bug in the wiring")

    setattr(handler.module, wiring, broken)
    return handler


@pytest.mark.parametrize(
    ("function", "wiring", "method"),
    [("resolve_by_token", "resolve_dependencies", "POST"), ("inspect_by_token", "token_dependencies", "GET")],
)
def test_a_bug_is_a_500_with_the_token_headers_and_changes_nothing(
    harness: WorkflowHarness,
    dynamodb: Any,
    table_name: str,
    caplog: pytest.LogCaptureFixture,
    function: str,
    wiring: str,
    method: str,
) -> None:
    # Given a suspended run, a link to it, and a handler that fails with an unexpected error
    run = suspended(harness)
    token = minted(run)["token"]
    before = snapshot_and_events(dynamodb, table_name, run.run_id)
    handler = failing(Handler(function), wiring)
    body = {"resumeValue": ACCEPT} if method == "POST" else None
    # When a program and a browser use the link
    as_json = handler(token_event(token, method=method, body=body))
    as_page = handler(token_event(token, method=method, body=body, accept=BROWSER_ACCEPT))
    # Then both get 500 with the token headers: problem+json `internal`, or a page that says so
    assert_token_headers(as_json, 500, "application/problem+json")
    assert json.loads(as_json["body"])["code"] == "internal"
    assert "a bug in the wiring" not in as_json["body"]
    assert_token_headers(as_page, 500, "text/html")
    assert "Something went wrong" in as_page["body"]
    assert as_page["headers"]["Content-Security-Policy"].startswith("default-src 'none'")
    # And nothing changed, and the token is not in the logs of the failure
    assert snapshot_and_events(dynamodb, table_name, run.run_id) == before
    assert Handler("inspect_by_token")(token_event(token))["headers"]["Waitgate-Status"] == "pending"
    assert "unhandled error" in caplog.text and "a bug in the wiring" in caplog.text
    assert token not in caplog.text


def test_a_body_over_256_kb_is_413_with_the_token_headers(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a suspended run and its link
    run = suspended(harness)
    token = minted(run)["token"]
    before = snapshot_and_events(dynamodb, table_name, run.run_id)
    # When the link is posted a body over the limit
    big = {"resumeValue": {**ACCEPT, "feedback": "x" * 300_000}}
    answer = Handler("resolve_by_token")(token_event(token, method="POST", body=big))
    # Then 413 payload_too_large with the token headers, and the interrupt still waits
    assert_token_headers(answer, 413, "application/problem+json")
    assert json.loads(answer["body"])["code"] == "payload_too_large"
    assert snapshot_and_events(dynamodb, table_name, run.run_id) == before


def test_a_method_the_handler_has_no_route_for_is_404_with_the_token_headers(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a suspended run and its link
    run = suspended(harness)
    token = minted(run)["token"]
    before = snapshot_and_events(dynamodb, table_name, run.run_id)
    # When the inspect handler gets a DELETE (API Gateway would not route one; a mis-set route might)
    event = token_event(token)
    event["requestContext"]["http"]["method"] = "DELETE"
    event["routeKey"] = event["requestContext"]["routeKey"] = "DELETE /interrupts/{token}"
    answer = Handler("inspect_by_token")(event)
    # Then 404 not_found with the token headers, and nothing changed
    assert_token_headers(answer, 404, "application/problem+json")
    assert snapshot_and_events(dynamodb, table_name, run.run_id) == before
