"""The client's retries and errors against a scripted stdlib HTTP server (real sockets, no mocks):
which answers are retried, with the same Idempotency-Key, and which typed error comes out."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from waitgate.sdk import (
    Forbidden,
    IdempotencyKeyReused,
    InternalError,
    InterruptAlreadyResolved,
    InterruptExpired,
    RetryPolicy,
    Unauthorized,
    ValidationError,
    WaitgateApiError,
    WaitgateClient,
    WaitgateUnreachable,
)

RESOLVED = {
    "runId": "r1",
    "nodeId": "Approve",
    "interruptId": "i-1",
    "status": "resolved",
    "resumeValue": {"a": 1},
}


def problem(status: int, code: str, **extensions: Any) -> tuple[int, dict[str, str], Any]:
    body = {
        "type": f"https://waitgate.dev/problems/{code}",
        "title": code,
        "status": status,
        "detail": "d",
        "code": code,
    }
    return status, {"Content-Type": "application/problem+json"}, body | extensions


@dataclass
class Script:
    """The answers to give, in order, and what each request carried."""

    answers: list[tuple[int, dict[str, str], Any]] = field(default_factory=list)
    seen: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            script.seen.append(
                {"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body}
            )
            status, headers, payload = script.answers.pop(0)
            raw = json.dumps(payload).encode()
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        do_GET = do_POST = _answer

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", script
    httpd.shutdown()
    httpd.server_close()


def client_for(base_url: str, sleeps: list[float], retries: int = 3) -> WaitgateClient:
    policy = RetryPolicy(retries=retries, base_backoff=0.5, max_backoff=1.5, jitter=lambda: 1.0)
    return WaitgateClient(base_url, token_provider=lambda: "jwt-1", policy=policy, sleep=sleeps.append)


def test_5xx_and_in_flight_are_retried_with_the_same_idempotency_key(server: tuple[str, Script]) -> None:
    # Given a host that answers 503, then 409 idempotency_key_in_flight, then 500, then 200
    base_url, script = server
    script.answers = [
        problem(503, "unavailable"),
        problem(409, "idempotency_key_in_flight"),
        problem(500, "internal"),
        (200, {}, RESOLVED),
    ]
    sleeps: list[float] = []
    # When a resolve is sent
    resolution = client_for(base_url, sleeps).resolve_by_run("r1", "Approve", {"action": "accept"})
    # Then it was sent four times with one Idempotency-Key and the JWT, backing off exponentially (capped)
    keys = {request["headers"]["Idempotency-Key"] for request in script.seen}
    assert len(script.seen) == 4 and len(keys) == 1
    assert all(request["headers"]["Authorization"] == "Bearer jwt-1" for request in script.seen)
    assert sleeps == [0.5, 1.0, 1.5]
    assert (resolution.status, resolution.resume_value, resolution.replayed) == ("resolved", {"a": 1}, False)
    assert json.loads(script.seen[0]["body"]) == {"resumeValue": {"action": "accept"}}
    assert script.seen[0]["path"] == "/runs/r1/interrupts/Approve"


def test_each_call_gets_its_own_key_unless_given(server: tuple[str, Script]) -> None:
    base_url, script = server
    script.answers = [(200, {}, RESOLVED), (200, {"Idempotent-Replayed": "true"}, RESOLVED)]
    client = client_for(base_url, [])
    # When two calls are made, the second with the caller's own key
    client.resolve_by_run("r1", "Approve", {})
    replay = client.resolve_by_run("r1", "Approve", {}, idempotency_key="evt_123")
    # Then the first has a generated uuid4 and the second the given key, whose replay is reported
    generated, given = (request["headers"]["Idempotency-Key"] for request in script.seen)
    assert len(generated) == 36 and given == "evt_123"
    assert replay.replayed is True


def test_429_waits_for_retry_after(server: tuple[str, Script]) -> None:
    base_url, script = server
    script.answers = [
        (429, {"Retry-After": "2"}, {"message": "Too Many Requests"}),
        (200, {}, {"interrupt": {}}),
    ]
    sleeps: list[float] = []
    assert client_for(base_url, sleeps).capabilities() == {"interrupt": {}}
    assert sleeps == [2.0]
    # And /capabilities is public: no JWT is sent
    assert "Authorization" not in script.seen[0]["headers"]


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        (problem(409, "interrupt_already_resolved"), InterruptAlreadyResolved),
        (problem(410, "interrupt_expired"), InterruptExpired),
        (problem(403, "forbidden"), Forbidden),
        (problem(422, "idempotency_key_reused"), IdempotencyKeyReused),
        ((401, {}, {"message": "Unauthorized"}), Unauthorized),  # API Gateway's own body
        (problem(418, "teapot"), WaitgateApiError),
    ],
)
def test_refusals_are_typed_and_not_retried(
    server: tuple[str, Script], answer: tuple[int, dict[str, str], Any], error: type[WaitgateApiError]
) -> None:
    base_url, script = server
    script.answers = [answer]
    sleeps: list[float] = []
    with pytest.raises(error) as raised:
        client_for(base_url, sleeps).resolve_by_run("r1", "Approve", {})
    assert type(raised.value) is error and raised.value.status == answer[0]
    assert len(script.seen) == 1 and sleeps == []


def test_validation_error_carries_the_path_and_the_problem(server: tuple[str, Script]) -> None:
    base_url, script = server
    script.answers = [problem(400, "validation_error", path="resumeValue.answers.region")]
    with pytest.raises(ValidationError) as raised:
        client_for(base_url, []).resolve_by_run("r1", "Ask", {"answers": {}})
    assert raised.value.path == "resumeValue.answers.region"
    assert (raised.value.code, raised.value.detail) == ("validation_error", "d")
    assert raised.value.problem["type"] == "https://waitgate.dev/problems/validation_error"


def test_retries_are_bounded(server: tuple[str, Script]) -> None:
    base_url, script = server
    script.answers = [problem(500, "internal")] * 3
    sleeps: list[float] = []
    with pytest.raises(InternalError):
        client_for(base_url, sleeps, retries=2).get_run("r1")
    assert len(script.seen) == 3 and len(sleeps) == 2


def test_no_answer_at_all_is_unreachable_after_the_retries() -> None:
    # Given a port nobody listens on
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sleeps: list[float] = []
    # Then each retry backs off and the error does not echo the URL
    with pytest.raises(WaitgateUnreachable) as raised:
        client_for(f"http://127.0.0.1:{port}", sleeps, retries=2).resolve_by_token("ow2.secret", {})
    assert len(sleeps) == 2 and "ow2.secret" not in str(raised.value)


def test_token_surfaces_take_a_token_or_a_link_and_send_no_jwt(server: tuple[str, Script]) -> None:
    base_url, script = server
    headers = {
        "Waitgate-Run-Id": "r1",
        "Waitgate-Node-Id": "Approve",
        "Waitgate-Status": "pending",
        "Waitgate-Interrupt-Id": "i-1",
        "Waitgate-Link-Expires-At": "2026-11-30T10:30:00Z",
    }
    script.answers = [(200, headers, {"kind": "custom"}), (200, {}, RESOLVED)]
    client = client_for(base_url, [])
    # When a token is inspected and a whole link is resolved
    seen = client.inspect_by_token("ow2.hs256.k1.p/q.m")
    client.resolve_by_token(f"{base_url}/interrupts/ow2.hs256.k1.pq.m", {"ok": True})
    # Then the token is one path segment, the link is used as given, and no JWT is sent
    assert [request["path"] for request in script.seen] == [
        "/interrupts/ow2.hs256.k1.p%2Fq.m",
        "/interrupts/ow2.hs256.k1.pq.m",
    ]
    assert not any("Authorization" in request["headers"] for request in script.seen)
    assert (seen.payload, seen.run_id, seen.status, seen.link_expires_at.isoformat()) == (  # type: ignore[union-attr]
        {"kind": "custom"},
        "r1",
        "pending",
        "2026-11-30T10:30:00+00:00",
    )


def test_minted_links_keep_the_token_out_of_repr(server: tuple[str, Script]) -> None:
    base_url, script = server
    minted = {
        "token": "ow2.secret",
        "url": f"{base_url}/interrupts/ow2.secret",
        "expiresAt": "2026-11-30T10:30:00Z",
    }
    script.answers = [(201, {}, minted)]
    link = client_for(base_url, []).mint_token("r1", "Approve", sub="payment-provider", ttl_seconds=900)
    assert link.token == "ow2.secret" and "ow2.secret" not in repr(link)
    assert json.loads(script.seen[0]["body"]) == {
        "intent": "resolve",
        "sub": "payment-provider",
        "ttlSeconds": 900,
    }
    assert "Idempotency-Key" in script.seen[0]["headers"]


def test_events_are_read_page_after_page(server: tuple[str, Script]) -> None:
    base_url, script = server
    script.answers = [
        (200, {}, {"events": [{"seq": 1}, {"seq": 2}], "next": 2}),
        (200, {}, {"events": [{"seq": 3}]}),
    ]
    events = list(client_for(base_url, []).list_run_events("r 1", mode="debug", page_size=2))
    assert [event["seq"] for event in events] == [1, 2, 3]
    assert [request["path"] for request in script.seen] == [
        "/runs/r%201/events?mode=debug&limit=2",
        "/runs/r%201/events?mode=debug&limit=2&after=2",
    ]
