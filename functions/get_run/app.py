"""getRun — GET /runs/{runId} (scope runs:read): the RunSnapshot {runId, tenantId, status,
currentNodeId?, pendingInterrupt?}. Another tenant's run is 404, like one that does not exist."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import json_response
from waitgate.http.router import Response
from waitgate.run.records import RunRef
from waitgate.service.read_runs import get_run
from waitgate.wiring.composition import store
from waitgate.wiring.observability import observed

logger = Logger()
app = new_http_app()


@app.get("/runs/<runId>")
def run_snapshot(runId: str) -> Response[str]:
    caller = bearer_caller(app, "runs:read")
    run = RunRef.parse(caller.tenant_id, path_parameter(app, "runId"))
    return json_response(200, get_run(run, store()), headers={"Cache-Control": "no-store"})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
