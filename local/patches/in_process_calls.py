"""The stack's own AWS calls answered by its moto server's application in this process, not over a socket.

Every boto3 client of the stack's process (the handlers', the pumps', the resources' creators) talks to
the moto server the process itself runs (local.standins.moto_server). Over HTTP each call paid for a
connection's I/O on both ends, http.client's and werkzeug's parsing, and a server thread started for
the request: 4.3 ms of CPU for a DynamoDB GetItem, of which 1.9 ms is the call itself (2026-12-03).
Here botocore's transport, for a request to that server, builds the WSGI environment werkzeug's
server would build from it (method, raw path and query, headers, body) and hands it to the same
application the server serves (moto's `DomainDispatcherApplication`), in the calling thread; the
answer's status, headers and body become botocore's response as the socket's would. What answers
is the same code with the same backends; botocore's side (the model check of `strict_requests`, the
faults of `faults`, retries, parsing) runs as before. Other processes (the tests, the CLI, the
durable runner) still reach the server over HTTP, and a request to any other address is sent as is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from local.patches import replace_attribute

WsgiApp = Callable[..., Any]
_APPS: dict[str, WsgiApp] = {}  # "127.0.0.1:port" → the application served there by this process
_LOCK = threading.Lock()


def serve_in_process(endpoint_url: str, app: WsgiApp) -> None:
    """Calls of this process to `endpoint_url` are answered by `app` (until `stop_serving`)."""
    install()
    with _LOCK:
        _APPS[urlsplit(endpoint_url).netloc] = app


def stop_serving(endpoint_url: str) -> None:
    with _LOCK:
        _APPS.pop(urlsplit(endpoint_url).netloc, None)


def install() -> None:
    """Idempotent: botocore's urllib3 transport answers requests to a served address in-process."""
    from botocore.httpsession import URLLib3Session

    replace_attribute(URLLib3Session, "send", _answering_in_process)


def _answering_in_process(send: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def in_process_or_sent(self: Any, request: Any) -> Any:
        app = _APPS.get(urlsplit(request.url).netloc)
        if app is None:
            return send(self, request)
        return answer(app, request)

    return in_process_or_sent


def answer(app: WsgiApp, request: Any) -> Any:
    """botocore's `AWSResponse` to `request` (an `AWSPreparedRequest`) from the WSGI `app`."""
    from botocore.awsrequest import AWSResponse
    from moto.core.botocore_stubber import MockRawResponse
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    url = urlsplit(request.url)
    body = request.body
    if hasattr(body, "read"):
        body = body.read()
    if isinstance(body, str):
        body = body.encode("utf-8")
    headers = [(name, _text(value)) for name, value in request.headers.items()]
    environ = EnvironBuilder(
        path=url.path + (f"?{url.query}" if url.query else ""),
        base_url=f"{url.scheme}://{url.netloc}",
        method=request.method,
        headers=headers,
        data=body or b"",
    ).get_environ()
    environ["REMOTE_ADDR"] = "127.0.0.1"
    chunks, status, answered = run_wsgi_app(app, environ, buffered=True)
    try:
        content = b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    joined: dict[str, str] = {}
    for name, value in answered.items():  # as urllib3 joins a repeated header
        joined[name] = f"{joined[name]}, {value}" if name in joined else value
    for name, value in _served_headers().items():  # as werkzeug's server adds them
        if name not in answered:
            joined[name] = value
    return AWSResponse(request.url, int(status.split(" ", 1)[0]), joined, MockRawResponse(content))


def _served_headers() -> dict[str, str]:
    """(moto's answers name their own Server.)"""
    from email.utils import formatdate

    return {"Date": formatdate(usegmt=True), "Connection": "close"}


def _text(value: str | bytes) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value
