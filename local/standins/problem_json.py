"""RFC 9457 problem+json answers the local gateway gives on its own (no handler involved)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from werkzeug.wrappers import Response

_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    404: "Not found",
    405: "Method not allowed",
    408: "Request timeout",
    413: "Payload too large",
    414: "URI too long",
    431: "Request header fields too large",
    500: "Internal server error",
    501: "Not implemented",
    505: "HTTP version not supported",
}
# The codes of the refusals werkzeug's HTTP server makes before the gateway sees a request.
SERVER_CODES = {
    408: "request_timeout",
    414: "uri_too_long",
    431: "request_header_fields_too_large",
    501: "not_implemented",
    505: "http_version_not_supported",
}


def problem_document(status: int, code: str, detail: str) -> bytes:
    document = {
        "type": "about:blank",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "code": code,
    }
    return json.dumps(document).encode("utf-8")


def problem(status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    response = Response(
        problem_document(status, code, detail), status=status, content_type="application/problem+json"
    )
    response.headers.update(headers or {})
    return response
