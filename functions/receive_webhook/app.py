"""receiveWebhook — POST /webhooks/{source}: a provider's signed event (docs/webhooks.md).

The source's signature is the credential (no JWT): an unknown source, a forged, stale or wrong-secret
signature is 401 with one problem+json body for all, and nothing is stored. A signed event is kept and
matched to the waits it satisfies, each resolved through the one resolve path; the answer is 200 at
once (`{status: matched|kept|duplicate, eventId, resolved}`), a provider's retry of the same event
included. The body is never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.errors import PayloadTooLargeError
from waitgate.http.body import raw_body
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import json_response
from waitgate.http.router import Response
from waitgate.run.size_limits import MAX_BODY_BYTES
from waitgate.service.receive_webhook import WebhookDelivery, receive_webhook
from waitgate.wiring.observability import observed
from waitgate.wiring.webhook_composition import webhook_dependencies

logger = Logger()
app = new_http_app()


@app.post("/webhooks/<source>")
def webhook(source: str) -> Response[str]:
    event = app.current_event.raw_event
    body = raw_body(event)
    if len(body) > MAX_BODY_BYTES:
        raise PayloadTooLargeError(f"The body is larger than {MAX_BODY_BYTES // 1024} KB.")
    delivery = WebhookDelivery(path_parameter(app, "source"), body, dict(app.current_event.headers))
    receipt = receive_webhook(delivery, webhook_dependencies())
    logger.info("webhook", extra={"source": delivery.source, **receipt.to_json()})
    return json_response(200, receipt.to_json(), headers={"Cache-Control": "no-store"})


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
