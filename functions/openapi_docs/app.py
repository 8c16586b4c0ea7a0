"""getOpenApi — GET /openapi.json, and its browsable view GET /docs (+ /docs/{asset}; /docs/ redirects
to /docs); public.

The document is generated from the layer's operation registry and models (waitgate.http.openapi);
the view is Swagger UI served from this function (no CDN), under a Content-Security-Policy of 'self'.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.errors import NotFoundError
from waitgate.http.openapi.browsable import CONTENT_SECURITY_POLICY, PAGE, asset_of
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import HTML_CONTENT_TYPE, JSON_CONTENT_TYPE
from waitgate.http.router import Response
from waitgate.wiring.observability import observed

logger = Logger()
app = new_http_app()
CACHED = {"Cache-Control": "public, max-age=300"}


@app.get("/openapi.json")
def openapi_document() -> Response[str]:
    # Generated from the models on the first request for it, not at every cold start: /docs and its
    # assets do not need pydantic's JSON schemas (docs/performance.md, "Cold start as deployed").
    from waitgate.http.openapi import openapi_json

    return Response(status_code=200, content_type=JSON_CONTENT_TYPE, body=openapi_json(), headers=CACHED)


@app.get("/docs")
def docs_page() -> Response[str]:
    headers = {
        **CACHED,
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Content-Type-Options": "nosniff",
    }
    return Response(status_code=200, content_type=HTML_CONTENT_TYPE, body=PAGE, headers=headers)


@app.get("/docs/")
def docs_page_with_slash() -> Response[str]:
    """API Gateway routes `/docs/` here too; the page's links are relative to `/docs`, so go there."""
    return Response(status_code=308, content_type="text/plain", body="", headers={"Location": "../docs"})


@app.get("/docs/<asset>")
def docs_asset(asset: str) -> Response[str]:
    found = asset_of(path_parameter(app, "asset"))
    if found is None:
        raise NotFoundError("No such asset.")
    content_type, text = found
    return Response(status_code=200, content_type=content_type, body=text, headers={**CACHED})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
