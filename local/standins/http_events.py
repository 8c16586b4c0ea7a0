"""API Gateway HTTP API payload format 2.0: the event a handler gets, and its answer mapped back."""

from __future__ import annotations

import base64
import json
import time
import uuid
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from werkzeug.wrappers import Request, Response

from local.template.http_routes import Route

_TEXT_TYPES = ("text/", "application/json", "application/xml", "application/javascript")


def raw_path(request: Request) -> str:
    """The path as the client sent it (still percent-encoded), as in API Gateway's rawPath."""
    raw = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI")
    return str(raw).split("?", 1)[0] if raw else quote(request.path)


def payload_v2_event(
    request: Request,
    route: Route,
    path_parameters: dict[str, str],
    claims: dict[str, str] | None,
) -> dict[str, Any]:
    """The event API Gateway would build for `request` matched to `route`."""
    body, is_base64 = _event_body(request)
    now = time.time()
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route.route_key,
        "rawPath": raw_path(request),
        "rawQueryString": request.query_string.decode("latin-1"),
        "headers": _headers(request),
        "requestContext": _request_context(request, route, claims, now),
        "isBase64Encoded": is_base64,
    }
    cookies = request.headers.get("Cookie")
    if cookies:
        event["cookies"] = [cookie.strip() for cookie in cookies.split(";") if cookie.strip()]
    if request.args:
        event["queryStringParameters"] = {name: ",".join(request.args.getlist(name)) for name in request.args}
    if path_parameters:
        event["pathParameters"] = path_parameters
    if body is not None:
        event["body"] = body
    return event


def _headers(request: Request) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in request.headers.items():
        if name.lower() == "cookie":
            continue
        key = name.lower()
        headers[key] = f"{headers[key]},{value}" if key in headers else value
    return headers


def _event_body(request: Request) -> tuple[str | None, bool]:
    raw = request.get_data(cache=True)
    if not raw:
        return None, False
    content_type = (request.content_type or "").lower()
    if content_type.startswith(_TEXT_TYPES) or content_type.endswith("+json"):
        try:
            return raw.decode("utf-8"), False
        except UnicodeDecodeError:
            pass
    return base64.b64encode(raw).decode("ascii"), True


def _request_context(
    request: Request, route: Route, claims: dict[str, str] | None, now: float
) -> dict[str, Any]:
    context: dict[str, Any] = {
        "accountId": "123456789012",
        "apiId": "local",
        "domainName": request.host,
        "domainPrefix": request.host.split(".", 1)[0],
        "http": {
            "method": request.method,
            "path": raw_path(request),
            "protocol": request.environ.get("SERVER_PROTOCOL", "HTTP/1.1"),
            "sourceIp": request.remote_addr or "127.0.0.1",
            "userAgent": request.headers.get("User-Agent", ""),
        },
        "requestId": str(uuid.uuid4()),
        "routeKey": route.route_key,
        "stage": "$default",
        "time": datetime.fromtimestamp(now, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000"),
        "timeEpoch": int(now * 1000),
    }
    if claims is not None:
        context["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
    return context


def response_from(result: Any) -> Response:
    """What API Gateway answers for a handler's result (payload format 2.0 rules)."""
    if not (isinstance(result, dict) and "statusCode" in result):
        text = result if isinstance(result, str) else json.dumps(result)
        return Response(text, status=200, content_type="application/json")
    body: Any = result.get("body") or ""
    if result.get("isBase64Encoded"):
        body = base64.b64decode(body)
    response = Response(body, status=int(result["statusCode"]))
    response.headers.remove("Content-Type")
    for name, value in (result.get("headers") or {}).items():
        response.headers[name] = str(value)
    for name, values in (result.get("multiValueHeaders") or {}).items():
        for value in values:
            response.headers.add(name, str(value))
    for cookie in result.get("cookies") or []:
        response.headers.add("Set-Cookie", cookie)
    return response
