"""The Powertools HTTP resolver every handler starts from, with problem+json for every error."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

from waitgate.answers import Answer
from waitgate.errors import NotFoundError, TemporarilyUnavailableError, WaitgateError
from waitgate.http.idempotency import REPLAYED_HEADER
from waitgate.http.negotiation import prefers_html
from waitgate.problem_details import PROBLEM_CONTENT_TYPE, internal_problem, problem_for

if TYPE_CHECKING:
    from waitgate.page import RenderedPage

logger = Logger(child=True)

JSON_CONTENT_TYPE = "application/json"
HTML_CONTENT_TYPE = "text/html; charset=utf-8"


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=JSON_CONTENT_TYPE,
        body=json.dumps(body, separators=(",", ":"), ensure_ascii=False),
        headers=headers or {},
    )


def answer_response(answer: Answer, headers: dict[str, str] | None = None) -> Response[str]:
    """An answer as first rendered (or replayed, byte for byte, under its Idempotency-Key)."""
    all_headers = dict(headers or {})
    if answer.content_type == PROBLEM_CONTENT_TYPE:
        all_headers.setdefault("Cache-Control", "no-store")
    if answer.replayed:
        all_headers[REPLAYED_HEADER] = "true"
    return Response(
        status_code=answer.status, content_type=answer.content_type, body=answer.body, headers=all_headers
    )


def problem_response(status: int, body: str, headers: dict[str, str] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=PROBLEM_CONTENT_TYPE,
        body=body,
        headers={"Cache-Control": "no-store", **(headers or {})},
    )


def retry_headers(error: WaitgateError) -> dict[str, str]:
    """503 unavailable says when to try again (the SDK client honours it)."""
    if isinstance(error, TemporarilyUnavailableError):
        return {"Retry-After": str(error.retry_after_seconds)}
    return {}


def new_http_app() -> APIGatewayHttpResolver:
    # debug=False whatever POWERTOOLS_DEV says: debug mode prints whole events, and events carry bearer
    # JWTs (headers) and signed tokens (paths), which are never logged.
    app = APIGatewayHttpResolver(debug=False)

    @app.exception_handler(WaitgateError)  # type: ignore[untyped-decorator]
    def domain_error(error: WaitgateError) -> Response[str]:
        if error.status >= 500:
            logger.error("request failed", extra={"code": error.code, "detail": error.detail})
        return problem_response(*problem_for(error), retry_headers(error))

    @app.not_found
    def unknown_route(_: Exception) -> Response[str]:
        return problem_response(*problem_for(NotFoundError("No such route.")))

    @app.exception_handler(Exception)  # type: ignore[untyped-decorator]
    def bug(error: Exception) -> Response[str]:
        logger.exception("unhandled error", extra={"error_type": type(error).__name__})
        return problem_response(*internal_problem())

    return app


def path_parameter(app: APIGatewayHttpResolver, name: str) -> str:
    """A path parameter as API Gateway decoded it (a nodeId may hold characters the URL encodes)."""
    value = (app.current_event.path_parameters or {}).get(name)
    if not value:
        raise NotFoundError("No such run or node.")
    return value


TOKEN_RESPONSE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Vary": "Accept",
}


def page_response(status: int, page: RenderedPage) -> Response[str]:
    """The human page (or its error page): strict CSP with this response's nonce, never cached."""
    headers = {
        **TOKEN_RESPONSE_HEADERS,
        "Content-Security-Policy": page.content_security_policy,
        "X-Frame-Options": "DENY",
    }
    return Response(status_code=status, content_type=HTML_CONTENT_TYPE, body=page.html, headers=headers)


def refusal_page_response(status: int, problem: str) -> Response[str]:
    """A refusal (problem+json text of ours) as the page a person reads."""
    from waitgate.page import error_page

    document = json.loads(problem)
    page = error_page(status, str(document.get("code", "")), str(document.get("detail", "")))
    return page_response(status, page)


def answer_page_response(answer: Answer) -> Response[str]:
    """A token resolve's answer for a browser: what was recorded, or why it was not."""
    if answer.content_type == PROBLEM_CONTENT_TYPE:
        return refusal_page_response(answer.status, answer.body)
    from waitgate.page import answer_page

    return page_response(answer.status, answer_page(answer.status, json.loads(answer.body)))


def new_token_app() -> APIGatewayHttpResolver:
    """The resolver of a signed-token surface: the token is in the path, so every answer (refusals,
    an unknown route and a bug's 500 too) is `no-store` and `no-referrer`, and a client that prefers
    HTML gets a readable page with the same status (401 invalid, 403, 404, 409 already resolved, 410
    expired, 500) instead of problem+json."""
    app = new_http_app()

    def token_problem(status: int, body: str, more: dict[str, str] | None = None) -> Response[str]:
        headers = {**TOKEN_RESPONSE_HEADERS, **(more or {})}
        if prefers_html(app.current_event.headers.get("accept")):
            page = refusal_page_response(status, body)
            page.headers.update(more or {})
            return page
        return Response(status_code=status, content_type=PROBLEM_CONTENT_TYPE, body=body, headers=headers)

    @app.exception_handler(WaitgateError)  # type: ignore[untyped-decorator]
    def token_refused(error: WaitgateError) -> Response[str]:
        if error.status >= 500:
            logger.error("request failed", extra={"code": error.code, "detail": error.detail})
        return token_problem(*problem_for(error), retry_headers(error))

    @app.not_found
    def unknown_token_route(_: Exception) -> Response[str]:
        return token_problem(*problem_for(NotFoundError("No such route.")))

    @app.exception_handler(Exception)  # type: ignore[untyped-decorator]
    def token_bug(error: Exception) -> Response[str]:
        logger.exception("unhandled error", extra={"error_type": type(error).__name__})
        return token_problem(*internal_problem())

    return app
