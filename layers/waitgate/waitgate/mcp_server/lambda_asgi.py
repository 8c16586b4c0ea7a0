"""An ASGI app (the SDK's Streamable HTTP app) behind API Gateway's payload v2 events.

The app's lifespan (the SDK's session manager, stateless) is entered once per Lambda instance on an
event loop of its own, in a daemon thread that Lambda freezes between invocations; each invocation
is one HTTP exchange on that loop: the event as an ASGI request, the ASGI answer as the proxy result.
The exchange runs in a copy of the invocation's context, so what the tools log carries the
invocation's log keys (its request ids: waitgate.wiring.observability).
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextvars
import threading
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
AsgiApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]
Lifespan = Callable[[], Any]  # an async context manager factory: the app's startup and shutdown


class LambdaAsgi:
    def __init__(self, app: AsgiApp, lifespan: Lifespan) -> None:
        self._app = app
        self._loop = asyncio.new_event_loop()
        started = threading.Event()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-asgi", daemon=True)
        self._thread.start()
        self._held = asyncio.run_coroutine_threadsafe(_hold(lifespan, started), self._loop)
        started.wait()
        if self._held.done():  # the lifespan failed to start: say why, here
            self._held.result()

    def __call__(self, event: Mapping[str, Any]) -> dict[str, Any]:
        answered: concurrent.futures.Future[dict[str, Any]] = concurrent.futures.Future()

        def start() -> None:  # on the loop, in the invocation's context: the task copies it
            task = asyncio.ensure_future(self._exchange(event))
            task.add_done_callback(lambda done: _settle(answered, done))

        self._loop.call_soon_threadsafe(start, context=contextvars.copy_context())
        return answered.result()

    async def _exchange(self, event: Mapping[str, Any]) -> dict[str, Any]:
        body = _body_of(event)
        answer = _Answer()

        async def receive() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        await self._app(scope_of(event), receive, answer.send)
        return answer.result()


def _settle(answered: concurrent.futures.Future[dict[str, Any]], done: asyncio.Task[dict[str, Any]]) -> None:
    if done.cancelled():
        answered.cancel()
    elif done.exception() is not None:
        answered.set_exception(done.exception())
    else:
        answered.set_result(done.result())


async def _hold(lifespan: Lifespan, started: threading.Event) -> None:
    try:
        async with lifespan():
            started.set()
            await asyncio.Event().wait()  # held for the instance's life
    finally:
        started.set()


def scope_of(event: Mapping[str, Any]) -> dict[str, Any]:
    """The ASGI HTTP scope of a payload v2 event (headers already lowercased by API Gateway)."""
    http = event.get("requestContext", {}).get("http", {})
    headers = dict(event.get("headers") or {})
    if event.get("cookies"):
        headers["cookie"] = "; ".join(event["cookies"])
    host = headers.get("host", "localhost")
    path = str(event.get("rawPath") or http.get("path") or "/")
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": str(http.get("method", "GET")).upper(),
        "scheme": headers.get("x-forwarded-proto", "https"),
        "path": path,
        "raw_path": path.encode("utf-8"),
        "root_path": "",
        "query_string": str(event.get("rawQueryString") or "").encode("latin-1"),
        "headers": [
            (name.lower().encode("latin-1"), str(value).encode("latin-1")) for name, value in headers.items()
        ],
        "server": (host.split(":")[0], 443),
        "client": (str(http.get("sourceIp", "")), 0),
        "state": {},
    }


def _body_of(event: Mapping[str, Any]) -> bytes:
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        return base64.b64decode(body)
    return str(body).encode("utf-8")


class _Answer:
    def __init__(self) -> None:
        self.status = 500
        self.headers: dict[str, str] = {}
        self.chunks: list[bytes] = []

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
            for raw_name, raw_value in message.get("headers", []):
                name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
                self.headers[name] = f"{self.headers[name]}, {value}" if name in self.headers else value
        elif message["type"] == "http.response.body":
            self.chunks.append(bytes(message.get("body", b"")))

    def result(self) -> dict[str, Any]:
        body = b"".join(self.chunks)
        answer: dict[str, Any] = {"statusCode": self.status, "headers": self.headers}
        try:
            return answer | {"body": body.decode("utf-8"), "isBase64Encoded": False}
        except UnicodeDecodeError:
            return answer | {"body": base64.b64encode(body).decode("ascii"), "isBase64Encoded": True}
