"""resolve_by_run's error contract: every 4xx is problem+json with the spec's code, nothing changes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler, http_event, sample_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


@pytest.fixture
def suspended(environment: None) -> str:
    harness = WorkflowHarness()
    run = harness.suspend(APPROVAL)
    Handler("request_interrupt")(run.task_event)
    return run.run_id


@pytest.fixture(scope="module")
def resolve() -> Handler:
    return Handler("resolve_by_run")


def problem(response: dict[str, Any]) -> dict[str, Any]:
    assert response["headers"]["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = json.loads(response["body"])
    assert set(body) >= {"type", "title", "status", "detail", "code"}
    assert body["status"] == response["statusCode"]
    return body


def without_claims(event: dict[str, Any]) -> dict[str, Any]:
    event["requestContext"].pop("authorizer")
    return event


CASES = [
    (
        "no bearer claims",
        lambda r: without_claims(http_event(r, "Interrupt", {"resumeValue": ACCEPT})),
        401,
        "unauthorized",
    ),
    (
        "missing scope",
        lambda r: http_event(r, "Interrupt", {"resumeValue": ACCEPT}, scope="runs:read"),
        403,
        "forbidden",
    ),
    (
        "comma-joined scope",
        lambda r: http_event(r, "Interrupt", {"resumeValue": ACCEPT}, scope="runs:read,approvals:respond"),
        403,
        "forbidden",
    ),
    ("unknown node", lambda r: http_event(r, "Elsewhere", {"resumeValue": ACCEPT}), 404, "not_found"),
    (
        "unknown run",
        lambda r: http_event("no-such-run", "Interrupt", {"resumeValue": ACCEPT}),
        404,
        "not_found",
    ),
    (
        "malformed run id",
        lambda r: http_event("bad%20id", "Interrupt", {"resumeValue": ACCEPT}),
        404,
        "not_found",
    ),
    (
        "other tenant",
        lambda r: http_event(r, "Interrupt", {"resumeValue": ACCEPT}, tenant="acme"),
        404,
        "not_found",
    ),
    (
        "action not allowed",
        lambda r: http_event(r, "Interrupt", {"resumeValue": {**ACCEPT, "action": "publish"}}),
        400,
        "validation_error",
    ),
    (
        "decidedAt missing",
        lambda r: http_event(r, "Interrupt", {"resumeValue": {"action": "accept"}}),
        400,
        "validation_error",
    ),
    (
        "body not closed",
        lambda r: http_event(r, "Interrupt", {"resumeValue": ACCEPT, "x": 1}),
        400,
        "validation_error",
    ),
    ("no resumeValue", lambda r: http_event(r, "Interrupt", {}), 400, "validation_error"),
    ("malformed JSON", lambda r: http_event(r, "Interrupt", None, raw_body="{"), 400, "validation_error"),
    (
        "nested 5,000 deep",
        lambda r: http_event(
            r, "Interrupt", None, raw_body='{"resumeValue":' + "[" * 5000 + "]" * 5000 + "}"
        ),
        400,
        "validation_error",
    ),
    (
        "lone surrogate",
        lambda r: http_event(
            r,
            "Interrupt",
            None,
            raw_body=json.dumps({"resumeValue": {**ACCEPT}})[:-2] + ', "feedback": "\\ud800"}}',
        ),
        400,
        "validation_error",
    ),
    (
        "NaN",
        lambda r: http_event(r, "Interrupt", None, raw_body='{"resumeValue": NaN}'),
        400,
        "validation_error",
    ),
    (
        "duplicate member",
        lambda r: http_event(r, "Interrupt", None, raw_body='{"resumeValue": 1, "resumeValue": 2}'),
        400,
        "validation_error",
    ),
    (
        "huge body",
        lambda r: http_event(r, "Interrupt", None, raw_body="x" * (256 * 1024 + 1)),
        413,
        "payload_too_large",
    ),
]


@pytest.mark.parametrize(("why", "make_event", "status", "code"), CASES, ids=[c[0] for c in CASES])
def test_each_bad_request_gets_its_status_and_code(
    suspended: str, resolve: Handler, why: str, make_event: Any, status: int, code: str
) -> None:
    # Given a suspended run / When a bad request arrives
    response = resolve(make_event(suspended))
    # Then the answer is problem+json with the spec's code, without internals
    body = problem(response)
    assert (response["statusCode"], body["code"]) == (status, code), why
    assert "Traceback" not in response["body"] and "waitgate." not in body["detail"]
    # And the interrupt is still pending: a good resolve wins afterwards
    assert resolve(http_event(suspended, "Interrupt", {"resumeValue": ACCEPT}))["statusCode"] == 200


def test_wrong_content_type_is_415(suspended: str, resolve: Handler) -> None:
    event = http_event(suspended, "Interrupt", {"resumeValue": ACCEPT})
    event["headers"]["content-type"] = "text/plain"
    response = resolve(event)
    assert (response["statusCode"], problem(response)["code"]) == (415, "unsupported_media_type")


def test_base64_bodies_are_read(suspended: str, resolve: Handler) -> None:
    import base64

    event = http_event(suspended, "Interrupt", {"resumeValue": ACCEPT})
    event["body"] = base64.b64encode(event["body"].encode()).decode()
    event["isBase64Encoded"] = True
    assert resolve(event)["statusCode"] == 200


def test_an_unknown_route_is_404_problem(resolve: Handler, environment: None) -> None:
    event = http_event("r", "n", {"resumeValue": ACCEPT})
    event["rawPath"] = "/nowhere"
    event["requestContext"]["http"]["path"] = "/nowhere"
    response = resolve(event)
    assert (response["statusCode"], problem(response)["code"]) == (404, "not_found")
