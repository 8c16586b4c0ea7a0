"""requestFreshLink — POST /fresh-links (no authorizer): the form of an expired link's page, carrying
that link's token (`token=<token>`, urlencoded; or JSON `{token}`).

Always `202` with the same body (a page for a browser, JSON otherwise), whatever came of it: it tells
nobody whether the link's person may decide or has an e-mail address (docs/signed-links.md). A body
that holds no token is `400`, over 256 KB `413`. The body holds a token: the event is never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.errors import ValidationFailedError
from waitgate.http.body import json_body
from waitgate.http.form_body import form_fields, is_form
from waitgate.http.negotiation import prefers_html
from waitgate.http.resolver import new_token_app
from waitgate.http.responses import TOKEN_RESPONSE_HEADERS, json_response, page_response
from waitgate.http.router import Response
from waitgate.page.expired import FRESH_LINK_ANSWER, fresh_link_page
from waitgate.service.fresh_link import request_fresh_link
from waitgate.wiring.channel_composition import fresh_link_dependencies
from waitgate.wiring.observability import observed

logger = Logger()
app = new_token_app()


@app.post("/fresh-links")
def fresh_link() -> Response[str]:
    event = app.current_event.raw_event
    token = token_of(event)
    outcome = request_fresh_link(token, fresh_link_dependencies())
    logger.info("fresh link requested", extra={"outcome": outcome})  # never the token
    if prefers_html(app.current_event.headers.get("accept")):
        return page_response(202, fresh_link_page())
    return json_response(202, {"status": "accepted", "detail": FRESH_LINK_ANSWER}, TOKEN_RESPONSE_HEADERS)


def token_of(event: dict[str, Any]) -> str:
    """The posted token: a form's one `token` field, or JSON `{token}`; 400 otherwise."""
    if is_form(event):
        fields = form_fields(event)
        token = fields.get("token") if fields.keys() == {"token"} else None
    else:
        body = json_body(event)
        token = body.get("token") if isinstance(body, dict) and body.keys() == {"token"} else None
    if not isinstance(token, str) or not token:
        raise ValidationFailedError(
            "The body must be the form {token} of an expired link's page.", path="token"
        )
    return token


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
