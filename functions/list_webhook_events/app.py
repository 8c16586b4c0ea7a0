"""listWebhookEvents — GET /webhooks/events?source=<name>&status=unmatched|matched&limit=<n> (scope
runs:read): the events a source delivered that are still kept, newest first (docs/webhooks.md).

`{source, events: [{source, eventId, deliveryId, type, status, receivedAt, expiresAt, data, matched?,
refusal?}]}`; `refusal` says why a wait refused the event (its resumeSchema). A source of another
tenant lists nothing.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.resolver import new_http_app
from waitgate.http.responses import json_response
from waitgate.http.router import Response
from waitgate.service.read_webhook_events import EventsQuery, list_events
from waitgate.wiring.observability import observed
from waitgate.wiring.webhook_composition import webhook_dependencies

logger = Logger()
app = new_http_app()


@app.get("/webhooks/events")
def webhook_events() -> Response[str]:
    caller = bearer_caller(app, "runs:read")
    query = EventsQuery.parse(
        caller,
        source=app.current_event.get_query_string_value("source"),
        status=app.current_event.get_query_string_value("status"),
        limit=app.current_event.get_query_string_value("limit"),
    )
    return json_response(
        200, list_events(query, webhook_dependencies()), headers={"Cache-Control": "no-store"}
    )


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
