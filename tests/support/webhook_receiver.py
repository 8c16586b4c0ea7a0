"""A subscriber of the webhooks out, for tests: a small HTTP server on 127.0.0.1 that keeps every
delivery it got (headers and raw body) and can be down for a while — answering 503, or not listening
at all (stopped, then started again on the same port)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes
    answered: int
    at: float  # time.monotonic() when it came

    @property
    def webhook_id(self) -> str:
        return self.headers["webhook-id"]

    def json(self) -> Any:
        return json.loads(self.body)

    def verified(self, secret: str) -> Any:
        """The payload, once the standardwebhooks library verified its signature (raises if not)."""
        return Webhook(secret).verify(self.body, self.headers)


class WebhookReceiver:
    def __init__(self, path: str = "/hooks") -> None:
        self.path = path
        self.answer = 204
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self.port = 0
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                status = receiver.answer
                with receiver._lock:
                    headers = {name.lower(): value for name, value in self.headers.items()}
                    receiver.received.append(Received(headers, body, status, time.monotonic()))
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def of_run(self, run_id: str) -> list[Received]:
        with self._lock:
            return [r for r in self.received if r.json()["data"]["runId"] == run_id]

    def accepted_of_run(self, run_id: str) -> list[Received]:
        return [r for r in self.of_run(run_id) if 200 <= r.answered < 300]
