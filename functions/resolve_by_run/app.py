"""resolveInterruptByRun — POST /runs/{runId}/interrupts/{nodeId} (scope approvals:respond)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.utilities.typing import LambdaContext
from waitgate.composition import resolve_dependencies
from waitgate.http.api import json_response, new_http_app, path_parameter
from waitgate.http.auth import caller_from_jwt
from waitgate.http.body import json_body
from waitgate.records import RunRef, check_node_id
from waitgate.service.resolve import ResolveCommand, resolve_interrupt
from waitgate.service.resume_rules import require_object_body
from waitgate.settings import settings

logger = Logger()
app = new_http_app()


@app.post("/runs/<runId>/interrupts/<nodeId>")
def resolve_by_run(runId: str, nodeId: str) -> Response[str]:
    caller = caller_from_jwt(
        app.current_event.raw_event,
        required_scope="approvals:respond",
        tenant_claim=settings().tenant_claim,
    )
    command = ResolveCommand(
        run=RunRef.parse(caller.tenant_id, path_parameter(app, "runId")),
        node_id=check_node_id(path_parameter(app, "nodeId")),
        resume_value=require_object_body(json_body(app.current_event.raw_event)),
        caller=caller,
    )
    outcome = resolve_interrupt(command, resolve_dependencies())
    return json_response(200 if outcome.status == "resolved" else 202, outcome.to_json())


@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
