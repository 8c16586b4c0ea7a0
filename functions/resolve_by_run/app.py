"""resolveInterruptByRun — POST /runs/{runId}/interrupts/{nodeId} (scope approvals:respond); and
consumeDecision — POST /runs/{runId}/interrupts/{nodeId}/consume, an action-bound decision spent once.

The body is `{resumeValue}` as JSON, or the human page's own form (urlencoded), as the signed-in
inbox sends it (docs/inbox.md): read against the interrupt it answers, after the state (404, 409) and
eligibility (403) checks, into the same resume value the link page's form makes. JSON answers either way.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.body import json_body, require_object_body
from waitgate.http.form_body import is_form
from waitgate.http.idempotency import idempotency_key, idempotency_ref
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import answer_response, json_response
from waitgate.http.router import Response
from waitgate.run.records import RunRef, check_node_id
from waitgate.service.resolve_interrupt import ResolveCommand, resolve_answer
from waitgate.wiring.composition import resolve_dependencies
from waitgate.wiring.observability import observed

logger = Logger()
app = new_http_app()


@app.post("/runs/<runId>/interrupts/<nodeId>")
def resolve_by_run(runId: str, nodeId: str) -> Response[str]:
    caller = bearer_caller(app, "approvals:respond")
    event = app.current_event.raw_event
    if is_form(event):
        from waitgate.http.run_form import resolve_form_by_run

        run = RunRef.parse(caller.tenant_id, path_parameter(app, "runId"))
        node_id = check_node_id(path_parameter(app, "nodeId"))
        return answer_response(resolve_form_by_run(run, node_id, caller, event, resolve_dependencies()))
    command = ResolveCommand(
        run=RunRef.parse(caller.tenant_id, path_parameter(app, "runId")),
        node_id=check_node_id(path_parameter(app, "nodeId")),
        resume_value=require_object_body(json_body(event)),
        caller=caller,
    )
    request = {"runId": command.run.run_id, "nodeId": command.node_id, "resumeValue": command.resume_value}
    ref = idempotency_ref(event, "resolveInterruptByRun", caller, request)
    return answer_response(resolve_answer(command, ref, resolve_dependencies()))


@app.post("/runs/<runId>/interrupts/<nodeId>/consume")
def consume_decision(runId: str, nodeId: str) -> Response[str]:
    """consumeDecision: spend an action-bound decision once (201 its receipt; 409 after)."""
    from waitgate.service.consume_decision import consume
    from waitgate.wiring.composition import consume_dependencies

    caller = bearer_caller(app, "approvals:respond")
    run = RunRef.parse(caller.tenant_id, path_parameter(app, "runId"))
    node_id = check_node_id(path_parameter(app, "nodeId"))
    event = app.current_event.raw_event
    receipt = consume(run, node_id, json_body(event), caller, consume_dependencies(), idempotency_key(event))
    return json_response(201, receipt)


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
