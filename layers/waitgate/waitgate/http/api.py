"""The Powertools HTTP resolver every handler starts from, with problem+json for every error."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

from waitgate.errors import NotFoundError, WaitgateError
from waitgate.http.problem import PROBLEM_CONTENT_TYPE, internal_problem, problem_for

logger = Logger(child=True)

JSON_CONTENT_TYPE = "application/json"


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=JSON_CONTENT_TYPE,
        body=json.dumps(body, separators=(",", ":"), ensure_ascii=False),
        headers=headers or {},
    )


def problem_response(status: int, body: str) -> Response[str]:
    return Response(
        status_code=status,
        content_type=PROBLEM_CONTENT_TYPE,
        body=body,
        headers={"Cache-Control": "no-store"},
    )


def new_http_app() -> APIGatewayHttpResolver:
    app = APIGatewayHttpResolver()

    @app.exception_handler(WaitgateError)  # type: ignore[untyped-decorator]
    def domain_error(error: WaitgateError) -> Response[str]:
        if error.status >= 500:
            logger.error("request failed", extra={"code": error.code, "detail": error.detail})
        return problem_response(*problem_for(error))

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
