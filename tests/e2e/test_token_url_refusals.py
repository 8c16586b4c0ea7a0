"""The local stack's own refusals on a signed link's URL, over raw HTTP: a wrong method (405), a body
too large (413), a URL too long (414), header lines too long or too many (431), a path under the
link's prefix that names no route (404). Each is problem+json with the token headers (never cached,
no referrer) and leaves the interrupt pending, with no event appended."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.e2e.conftest import HttpAnswer, LocalStackHandle
from tests.e2e.test_kinds_e2e import SampleRun, token_for

pytestmark = pytest.mark.e2e

CUSTOM = {"kind": "custom", "key": "label", "data": {"customKind": "acme.label"}}
TOKEN_HEADERS = {
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}
LONG = 70 * 1024  # over the 64 KB a request line or a header line may have


def raw_request(
    stack: LocalStackHandle, method: str, target: str, headers: list[tuple[str, str]], body: bytes = b""
) -> HttpAnswer:
    """One request exactly as given (http.client adds only Host and, with a body, its length)."""
    address = urlsplit(stack.api_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        connection.putrequest(method, target, skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name, value)
        if body:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body or None)
        response = connection.getresponse()
        return HttpAnswer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        connection.close()


@pytest.fixture
def link(local_stack: LocalStackHandle) -> tuple[SampleRun, str]:
    """A run of the generic workflow waiting on a custom interrupt, and a resolve link to it."""
    run = SampleRun(local_stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    minted = local_stack.http.post(
        f"/runs/{run.run_id}/interrupts/Interrupt/tokens",
        {"intent": "resolve", "sub": "webhook"},
        token=token_for(local_stack, "backend", "interrupts:mint"),
    )
    assert minted.status == 201, minted.body
    return run, str(minted.json()["token"])


def assert_refused(answer: HttpAnswer, status: int, code: str) -> dict[str, Any]:
    assert answer.status == status, answer.body
    assert answer.headers["content-type"] == "application/problem+json", answer.headers
    assert {name: answer.headers.get(name) for name in TOKEN_HEADERS} == TOKEN_HEADERS
    problem: dict[str, Any] = answer.json()
    assert (problem["status"], problem["code"]) == (status, code)
    return problem


def assert_untouched(stack: LocalStackHandle, run: SampleRun, token: str, events: int) -> None:
    """Then the interrupt still waits, and the run's log is as it was."""
    inspected = stack.http.get(f"/interrupts/{token}")
    assert (inspected.status, inspected.headers["waitgate-status"]) == (200, "pending")
    assert len(run.events("debug")) == events


REFUSALS: dict[str, tuple[int, str]] = {
    "wrong method": (405, "method_not_allowed"),
    "body over 256 KB": (413, "payload_too_large"),
    "URL over 64 KB": (414, "uri_too_long"),
    "header line over 64 KB": (431, "request_header_fields_too_large"),
    "over 100 headers": (431, "request_header_fields_too_large"),
    "no such route under the link": (404, "not_found"),
}


def refused_request(stack: LocalStackHandle, case: str, token: str) -> HttpAnswer:
    path = f"/interrupts/{token}"
    json_type = ("Content-Type", "application/json")
    if case == "wrong method":
        return raw_request(stack, "PUT", path, [json_type], b'{"resumeValue": {}}')
    if case == "body over 256 KB":
        body = json.dumps({"resumeValue": {"label": "x" * 300_000}}).encode()
        return raw_request(stack, "POST", path, [json_type], body)
    if case == "URL over 64 KB":
        return raw_request(stack, "GET", f"{path}?padding={'x' * LONG}", [])
    if case == "header line over 64 KB":
        return raw_request(stack, "GET", path, [("X-Padding", "x" * LONG)])
    if case == "over 100 headers":
        return raw_request(stack, "GET", path, [(f"X-Padding-{i}", "x") for i in range(101)])
    return raw_request(stack, "GET", f"{path}/no-such-route", [])


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refusal_on_a_link_is_problem_json_with_the_token_headers(
    local_stack: LocalStackHandle, link: tuple[SampleRun, str], case: str
) -> None:
    # Given a waiting run and its link
    run, token = link
    events = len(run.events("debug"))
    # When a request on the link's URL is refused before any handler runs
    answer = refused_request(local_stack, case, token)
    # Then problem+json with the case's status and code, and the token headers
    status, code = REFUSALS[case]
    assert_refused(answer, status, code)
    assert token not in answer.body.decode()
    if status == 405:
        assert answer.headers["allow"] == "GET, HEAD, POST"
    # And nothing changed
    assert_untouched(local_stack, run, token, events)


def test_an_over_long_url_elsewhere_is_problem_json_too(local_stack: LocalStackHandle) -> None:
    # When a URL over 64 KB names no link
    answer = raw_request(local_stack, "GET", f"/capabilities?padding={'x' * LONG}", [])
    # Then 414 problem+json, never cached
    assert answer.status == 414
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.headers["cache-control"] == "no-store"
    assert answer.json()["code"] == "uri_too_long"
