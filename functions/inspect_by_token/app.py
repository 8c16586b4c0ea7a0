"""inspectInterruptByToken — GET and HEAD /interrupts/{token}; the signed token is the credential.

The body is the InterruptPayload exactly as the workflow sent it (the spec's answer); where it waits
and until when the link works travel in headers (`Waitgate-Interrupt-Id`, `Waitgate-Run-Id`,
`Waitgate-Node-Id`, `Waitgate-Status`, `Waitgate-Link-Expires-At`). A client that prefers HTML gets
the human page (or, once resolved, what came of it). Nothing here writes. The path holds the token:
the event is never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.link_page import link_page
from waitgate.http.negotiation import prefers_html
from waitgate.http.resolver import new_token_app, path_parameter
from waitgate.http.responses import TOKEN_RESPONSE_HEADERS, json_response, page_response
from waitgate.http.router import Response
from waitgate.service.inspect_interrupt import InterruptView, inspect_by_token
from waitgate.wiring.composition import token_dependencies
from waitgate.wiring.observability import observed

logger = Logger()
app = new_token_app()


@app.route("/interrupts/<token>", method=["GET", "HEAD"])
def inspect(token: str) -> Response[str]:
    link = path_parameter(app, "token")
    if prefers_html(app.current_event.headers.get("accept")):
        response = page_response(*link_page(link, token_dependencies()))
    else:
        view = inspect_by_token(link, token_dependencies())
        response = json_response(200, view.payload, headers={**TOKEN_RESPONSE_HEADERS, **headers_of(view)})
    if app.current_event.http_method == "HEAD":
        response.body = ""
    return response


def headers_of(view: InterruptView) -> dict[str, str]:
    return {
        "Waitgate-Interrupt-Id": view.record.interrupt_id,
        "Waitgate-Run-Id": view.record.run.run_id,
        "Waitgate-Node-Id": view.record.node_id,
        "Waitgate-Status": view.record.status,
        "Waitgate-Link-Expires-At": view.expires_at,
    }


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
