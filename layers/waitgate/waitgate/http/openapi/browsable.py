"""GET /docs: Swagger UI served by the function itself (no CDN, no internet), under a CSP of 'self'.

The bundle and its style sheet are the ones Powertools ships; our own small script starts the UI
(an inline script would need 'unsafe-inline')."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Final

SWAGGER_UI_PACKAGE: Final = "aws_lambda_powertools.event_handler.openapi.swagger_ui"
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
START_SCRIPT: Final = """window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: new URL("openapi.json", document.baseURI).href,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
"""
PAGE: Final = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>waitgate API</title>
  <link rel="stylesheet" href="docs/swagger-ui.min.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.min.js"></script>
  <script src="docs/start.js"></script>
</body>
</html>
"""
ASSET_TYPES: Final = {
    "swagger-ui-bundle.min.js": "application/javascript; charset=utf-8",
    "swagger-ui.min.css": "text/css; charset=utf-8",
    "start.js": "application/javascript; charset=utf-8",
}


@lru_cache(maxsize=len(ASSET_TYPES))
def asset_of(name: str) -> tuple[str, str] | None:
    """(content type, text) of a /docs asset, or None if there is no such asset."""
    if name not in ASSET_TYPES:
        return None
    text = (
        START_SCRIPT
        if name == "start.js"
        else resources.files(SWAGGER_UI_PACKAGE).joinpath(name).read_text(encoding="utf-8")
    )
    return ASSET_TYPES[name], text
