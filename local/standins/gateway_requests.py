"""The gateway's HTTP request handler: werkzeug's, with its own refusals as problem+json.

Python's HTTP server refuses some requests before any WSGI app sees them — a request line over
64 KB (414), a header line over 64 KB or more than 100 headers (431), a malformed request line (400)
— with an HTML page. Here those answers are problem+json like every other refusal of the gateway,
with the token surface's headers on a path that may hold a signed token. The request log names such
a path without its token.
"""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any, Protocol

from werkzeug.serving import WSGIRequestHandler

from local.standins.problem_json import SERVER_CODES, problem_document

_REQUEST_TARGET = re.compile(rb"^[A-Z]+ +(\S+)")


class RefusalHeaders(Protocol):
    def refusal_headers(self, path: str) -> dict[str, str]: ...

    def token_free(self, path: str) -> str: ...


class GatewayRequestHandler(WSGIRequestHandler):
    """One connection's requests, answered by the server's WSGI app (the gateway)."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        status = HTTPStatus(code)
        self.log_error("code %d, message %s", code, message or status.phrase)
        body = problem_document(code, SERVER_CODES.get(code, "bad_request"), explain or status.description)
        self.send_response(code, message)
        self.send_header("Connection", "close")
        for name, value in self._gateway.refusal_headers(self._target()).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/problem+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """werkzeug's access log line (at INFO, with --verbose), a token in the path replaced."""
        line = self._gateway.token_free(self.requestline).translate(self._control_char_table)
        self.log("info", '"%s" %s %s', line, code, size)

    @property
    def _gateway(self) -> RefusalHeaders:
        app: Any = self.server.app
        gateway: RefusalHeaders = app
        return gateway

    def _target(self) -> str:
        """The request's path, also when the request line was too long to be parsed."""
        path = getattr(self, "path", None)
        if isinstance(path, str) and path:
            return path.split("?", 1)[0]
        found = _REQUEST_TARGET.match(getattr(self, "raw_requestline", b"") or b"")
        return found.group(1).decode("latin-1").split("?", 1)[0] if found else ""
