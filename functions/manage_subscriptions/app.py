"""Webhooks-out subscriptions (scope subscriptions:manage; docs/webhooks-out.md), the caller's tenant's:

- `POST /subscriptions` `{url, events: [<event type>...], secret?}` → 201 `{id, url, events, secret,
  createdAt}` (a `whsec_` secret is made when none is given; the only answer that shows it);
- `GET /subscriptions` → `{subscriptions: [{id, url, events, createdAt}]}` (never the secrets);
- `DELETE /subscriptions/{subscriptionId}` → 204;
- `GET /subscriptions/{subscriptionId}/deliveries?status=&limit=` → the delivery log, newest first;
- `POST /subscriptions/{subscriptionId}/redrive` → `{subscriptionId, redriven}`: parked deliveries
  queued again, each with its webhook-id.

An answer that carries a secret is never cached and never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.body import json_body
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import json_response
from waitgate.http.router import Response
from waitgate.service import manage_subscriptions as subscriptions
from waitgate.wiring.observability import observed
from waitgate.wiring.subscription_composition import subscription_dependencies

SCOPE = "subscriptions:manage"
NO_STORE = {"Cache-Control": "no-store"}
logger = Logger()
app = new_http_app()


@app.post("/subscriptions")
def add() -> Response[str]:
    caller = bearer_caller(app, SCOPE)
    body = json_body(app.current_event.raw_event)
    return json_response(
        201, subscriptions.add_subscription(caller, body, subscription_dependencies()), NO_STORE
    )


@app.get("/subscriptions")
def listed() -> Response[str]:
    caller = bearer_caller(app, SCOPE)
    return json_response(200, subscriptions.list_subscriptions(caller, subscription_dependencies()), NO_STORE)


@app.delete("/subscriptions/<subscriptionId>")
def remove(subscriptionId: str) -> Response[str]:
    caller = bearer_caller(app, SCOPE)
    subscriptions.remove_subscription(
        caller, path_parameter(app, "subscriptionId"), subscription_dependencies()
    )
    return Response(status_code=204, body="", headers=NO_STORE)


@app.get("/subscriptions/<subscriptionId>/deliveries")
def deliveries(subscriptionId: str) -> Response[str]:
    caller = bearer_caller(app, SCOPE)
    answer = subscriptions.list_deliveries(
        caller,
        path_parameter(app, "subscriptionId"),
        app.current_event.get_query_string_value("status"),
        app.current_event.get_query_string_value("limit"),
        subscription_dependencies(),
    )
    return json_response(200, answer, NO_STORE)


@app.post("/subscriptions/<subscriptionId>/redrive")
def redrive(subscriptionId: str) -> Response[str]:
    caller = bearer_caller(app, SCOPE)
    answer = subscriptions.redrive(caller, path_parameter(app, "subscriptionId"), subscription_dependencies())
    return json_response(200, answer, NO_STORE)


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
