"""An ASGI app behind payload v2 events (waitgate.mcp_server.lambda_asgi): the request as API Gateway
hands it over, the answer as it wants it back, the app's lifespan entered once per instance."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from waitgate.mcp_server.lambda_asgi import LambdaAsgi

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="none")


class EchoApp:
    """Answers with what it was asked, as JSON, and counts its lifespans."""

    def __init__(self) -> None:
        self.lifespans = 0

    @asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        self.lifespans += 1
        yield

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = (await receive())["body"]
        seen = {
            "method": scope["method"],
            "path": scope["path"],
            "query": scope["query_string"].decode(),
            "headers": {name.decode(): value.decode() for name, value in scope["headers"]},
            "body": body.decode("latin-1"),
            "requestId": REQUEST_ID.get(),  # the invocation's context, as its log keys are
        }
        headers = [(b"content-type", b"application/json"), (b"vary", b"a"), (b"vary", b"b")]
        await send({"type": "http.response.start", "status": 201, "headers": headers})
        await send({"type": "http.response.body", "body": json.dumps(seen).encode(), "more_body": True})
        await send({"type": "http.response.body", "body": b""})


def event(body: str, *, encoded: bool = False) -> dict[str, Any]:
    return {
        "rawPath": "/mcp",
        "rawQueryString": "a=1",
        "headers": {"authorization": "Bearer x", "host": "api.example.com"},
        "cookies": ["c=1"],
        "requestContext": {"http": {"method": "POST", "sourceIp": "203.0.113.9"}},
        "body": body,
        "isBase64Encoded": encoded,
    }


def test_an_event_is_one_asgi_exchange_and_the_lifespan_is_entered_once() -> None:
    app = EchoApp()
    bridge = LambdaAsgi(app, app.lifespan)
    entered = REQUEST_ID.set("req-1")
    first = bridge(event('{"jsonrpc": "2.0"}'))
    REQUEST_ID.reset(entered)
    second = bridge(event(base64.b64encode(b"\x00\xffbytes").decode(), encoded=True))
    # Then the app saw the request as sent, the body decoded, and answered with its status
    seen = json.loads(first["body"])
    assert (first["statusCode"], first["isBase64Encoded"]) == (201, False)
    assert (seen["method"], seen["path"], seen["query"], seen["body"]) == (
        "POST",
        "/mcp",
        "a=1",
        '{"jsonrpc": "2.0"}',
    )
    assert seen["headers"]["authorization"] == "Bearer x" and seen["headers"]["cookie"] == "c=1"
    assert first["headers"] == {"content-type": "application/json", "vary": "a, b"}
    assert json.loads(second["body"])["body"] == "\x00\xffbytes"
    # And the app ran in the invocation's context
    assert seen["requestId"] == "req-1"
    # And one lifespan served both invocations
    assert app.lifespans == 1
