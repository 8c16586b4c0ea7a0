"""The HTTP API's routing, for the handlers behind it: a request (API Gateway's HTTP API, payload 2.0)
to the function its method and path name, and that function's `Response` to the proxy result.

It does what the handlers used of Powertools' `APIGatewayHttpResolver`, with the same answers — routes
with `<name>` path segments (matched as Powertools matches them), exception handlers looked up along the
error's class hierarchy, a not-found handler, bytes bodies base64-encoded, repeated headers joined with
", " — and none of what it imports at a cold start: that package loads every resolver it has (AppSync's
asyncio, Bedrock's, VPC Lattice's) and every event class, ~50–60 ms of each HTTP function's import
(docs/performance.md, "Cold start as deployed"). Each app keeps the request it routes on itself."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

Body = TypeVar("Body")
Handler = Callable[..., "Response[Any]"]
ErrorHandler = Callable[[Any], "Response[Any]"]

_SEGMENT = r"[-._~()'!*:@,;=+&$%<> \[\]{}|^\w]+"  # Powertools' own: what API Gateway hands in a path
_NAMED = re.compile(r"<(\w+)>")


class RouteNotFound(Exception):
    """No route for the request's method and path: handed to the app's `not_found` handler."""


class Response(Generic[Body]):
    """An HTTP answer: status, content type (a default for the Content-Type header), body, headers."""

    def __init__(
        self,
        status_code: int,
        content_type: str | None = None,
        body: Body | None = None,
        headers: Mapping[str, str | list[str]] | None = None,
    ) -> None:
        self.status_code = status_code
        self.body = body
        self.headers: dict[str, str | list[str]] = dict(headers) if headers else {}
        if content_type:
            self.headers.setdefault("Content-Type", content_type)

    def proxy_result(self) -> dict[str, Any]:
        """The answer as API Gateway's HTTP API takes it from a function."""
        body: Any = self.body
        encoded = isinstance(body, bytes)
        if encoded:
            body = base64.b64encode(body).decode()
        elif body is not None and not isinstance(body, str):
            body = json.dumps(body, separators=(",", ":"))
        headers = {
            k: v if isinstance(v, str) else ", ".join(v) for k, v in self.headers.items() if v is not None
        }
        return {"statusCode": self.status_code, "body": body, "isBase64Encoded": encoded, "headers": headers,
                "cookies": []}  # fmt: skip


class HttpRequest:
    """The request being routed, read from its event as the handlers read it."""

    def __init__(self, event: dict[str, Any]) -> None:
        self.raw_event = event
        # API Gateway hands header names in lower case; looked up in lower case whatever the caller writes.
        self.headers = _Headers(event.get("headers") or {})

    @property
    def http_method(self) -> str:
        return str(self.raw_event["requestContext"]["http"]["method"])

    @property
    def path(self) -> str:
        """The path the routes match: rawPath, without the stage when it is not `$default`."""
        raw = str(self.raw_event["rawPath"])
        stage = self.raw_event.get("requestContext", {}).get("stage", "$default")
        return raw if stage == "$default" else raw[len("/" + stage) :]

    @property
    def path_parameters(self) -> dict[str, str]:
        return self.raw_event.get("pathParameters") or {}

    @property
    def query_string_parameters(self) -> dict[str, str]:
        return self.raw_event.get("queryStringParameters") or {}

    def get_query_string_value(self, name: str, default_value: str | None = None) -> str | None:
        return self.query_string_parameters.get(name, default_value)


class _Headers(dict[str, str]):
    def __init__(self, headers: Mapping[str, str]) -> None:
        super().__init__((k.lower(), v) for k, v in headers.items())

    def get(self, key: str, default: Any = None) -> Any:
        return super().get(key.lower(), default)


class HttpApp:
    """Routes by method and path; every error to the handler registered for its class (nearest first)."""

    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._error_handlers: dict[type[Exception], ErrorHandler] = {}
        self._request: HttpRequest | None = None

    @property
    def current_event(self) -> HttpRequest:
        if self._request is None:
            raise RuntimeError("no request is being routed")
        return self._request

    def route(self, rule: str, method: str | list[str]) -> Callable[[Handler], Handler]:
        pattern = re.compile("^" + _NAMED.sub(lambda m: f"(?P<{m[1]}>{_SEGMENT})", rule) + "$")
        methods = [method] if isinstance(method, str) else method

        def register(handler: Handler) -> Handler:
            self._routes += [(m.upper(), pattern, handler) for m in methods]
            return handler

        return register

    def get(self, rule: str) -> Callable[[Handler], Handler]:
        return self.route(rule, "GET")

    def post(self, rule: str) -> Callable[[Handler], Handler]:
        return self.route(rule, "POST")

    def delete(self, rule: str) -> Callable[[Handler], Handler]:
        return self.route(rule, "DELETE")

    def exception_handler(self, error: type[Exception]) -> Callable[[ErrorHandler], ErrorHandler]:
        def register(handler: ErrorHandler) -> ErrorHandler:
            self._error_handlers[error] = handler
            return handler

        return register

    def not_found(self, handler: ErrorHandler) -> ErrorHandler:
        return self.exception_handler(RouteNotFound)(handler)

    def resolve(self, event: dict[str, Any], context: object) -> dict[str, Any]:
        self._request = request = HttpRequest(event)
        try:
            return self._answer(request).proxy_result()
        finally:
            self._request = None

    def _answer(self, request: HttpRequest) -> Response[Any]:
        try:
            method, path = request.http_method.upper(), request.path
            for route_method, pattern, handler in self._routes:
                matched = pattern.match(path) if route_method == method else None
                if matched:
                    return handler(**matched.groupdict())
            raise RouteNotFound(f"{method} {path}")
        except Exception as error:
            handlers = self._error_handlers
            handle = next((handlers[c] for c in type(error).__mro__ if c in handlers), None)
            if handle is None:
                raise
            return handle(error)
