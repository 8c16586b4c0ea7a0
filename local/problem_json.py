"""RFC 9457 problem+json answers the local gateway gives on its own (no handler involved)."""

from __future__ import annotations

import json

from werkzeug.wrappers import Response

_TITLES = {
    401: "Unauthorized",
    404: "Not found",
    405: "Method not allowed",
    413: "Payload too large",
    500: "Internal server error",
}


def problem(status: int, code: str, detail: str) -> Response:
    document = {
        "type": "about:blank",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "code": code,
    }
    return Response(json.dumps(document), status=status, content_type="application/problem+json")
