"""capabilities — GET /capabilities (no authorizer: what the host advertises is public)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.resolver import new_http_app
from waitgate.http.responses import json_response
from waitgate.http.router import Response
from waitgate.service.capabilities import describe_capabilities
from waitgate.wiring.observability import observed
from waitgate.wiring.settings import settings

logger = Logger()
app = new_http_app()


@app.get("/capabilities")
def capabilities() -> Response[str]:
    configured = settings()
    body = describe_capabilities(configured.ref_kinds, configured.conversation_capability)
    return json_response(200, body, {"Cache-Control": "max-age=60"})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
