"""The HTTP apps every handler starts from (`waitgate.http.router`), with problem+json for every error:
one for the run surface, one for a signed-token surface (whose every answer is no-store and no-referrer)."""

from __future__ import annotations

from aws_lambda_powertools import Logger

from waitgate.errors import NotFoundError, WaitgateError
from waitgate.http.negotiation import prefers_html
from waitgate.http.responses import (
    TOKEN_RESPONSE_HEADERS,
    problem_response,
    refusal_page_response,
    retry_headers,
)
from waitgate.http.router import HttpApp, Response
from waitgate.run.problem_details import (
    INTERNAL,
    PROBLEM_CONTENT_TYPE,
    Problem,
    internal_problem,
    problem_for,
    problem_of,
)
from waitgate.run.telemetry import REFUSED_STATUSES, TokenRefused

logger = Logger(child=True)


def new_http_app() -> HttpApp:
    # It prints no event whatever POWERTOOLS_DEV says: events carry bearer JWTs (headers) and signed
    # tokens (paths), which are never logged.
    app = HttpApp()

    @app.exception_handler(WaitgateError)
    def domain_error(error: WaitgateError) -> Response[str]:
        if error.status >= 500:
            logger.error("request failed", extra={"code": error.code, "detail": error.detail})
        return problem_response(*problem_for(error), retry_headers(error))

    @app.not_found
    def unknown_route(_: Exception) -> Response[str]:
        return problem_response(*problem_for(NotFoundError("No such route.")))

    @app.exception_handler(Exception)
    def bug(error: Exception) -> Response[str]:
        logger.exception("unhandled error", extra={"error_type": type(error).__name__})
        return problem_response(*internal_problem())

    return app


def path_parameter(app: HttpApp, name: str) -> str:
    """A path parameter as API Gateway decoded it (a nodeId may hold characters the URL encodes)."""
    value = (app.current_event.path_parameters or {}).get(name)
    if not value:
        raise NotFoundError("No such run or node.")
    return value


def count_refusal(status: int) -> None:
    """A signed link refused, counted by its status alone (TokenRefusals; docs/operations.md)."""
    from waitgate.wiring.composition import telemetry

    telemetry().record(TokenRefused(status))


def new_token_app() -> HttpApp:
    """The resolver of a signed-token surface: the token is in the path, so every answer (refusals,
    an unknown route and a bug's 500 too) is `no-store` and `no-referrer`, and a client that prefers
    HTML gets a readable page with the same status (401 invalid, 403, 404, 409 already resolved, 410
    expired, 500) instead of problem+json."""
    app = new_http_app()

    def token_problem(
        rendered: tuple[int, str], problem: Problem, more: dict[str, str] | None = None
    ) -> Response[str]:
        status, body = rendered
        headers = {**TOKEN_RESPONSE_HEADERS, **(more or {})}
        if prefers_html(app.current_event.headers.get("accept")):
            page = refusal_page_response(status, problem)
            page.headers.update(more or {})
            return page
        return Response(status_code=status, content_type=PROBLEM_CONTENT_TYPE, body=body, headers=headers)

    @app.exception_handler(WaitgateError)
    def token_refused(error: WaitgateError) -> Response[str]:
        if error.status in REFUSED_STATUSES:
            count_refusal(error.status)
        if error.status >= 500:
            logger.error("request failed", extra={"code": error.code, "detail": error.detail})
        return token_problem(problem_for(error), problem_of(error), retry_headers(error))

    @app.not_found
    def unknown_token_route(_: Exception) -> Response[str]:
        unknown = NotFoundError("No such route.")
        return token_problem(problem_for(unknown), problem_of(unknown))

    @app.exception_handler(Exception)
    def token_bug(error: Exception) -> Response[str]:
        logger.exception("unhandled error", extra={"error_type": type(error).__name__})
        return token_problem(internal_problem(), INTERNAL)

    return app
