"""listRunEvents — GET /runs/{runId}/events?mode=updates|debug&after=<seq>&limit=<n> (scope runs:read).

`{events: [{seq, type, time, nodeId?, payload}], next?}` in seq order; pass `next` as `after` for the
following page. `updates` shows the durable events, `debug` adds the rest (votes, asks, deliveries).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import json_response
from waitgate.http.router import Response
from waitgate.run.records import RunRef
from waitgate.service.read_runs import EventsQuery, list_events
from waitgate.wiring.composition import store
from waitgate.wiring.observability import observed

logger = Logger()
app = new_http_app()


@app.get("/runs/<runId>/events")
def run_events(runId: str) -> Response[str]:
    caller = bearer_caller(app, "runs:read")
    query = EventsQuery.parse(
        RunRef.parse(caller.tenant_id, path_parameter(app, "runId")),
        mode=app.current_event.get_query_string_value("mode"),
        after=app.current_event.get_query_string_value("after"),
        limit=app.current_event.get_query_string_value("limit"),
    )
    return json_response(200, list_events(query, store()), headers={"Cache-Control": "no-store"})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
