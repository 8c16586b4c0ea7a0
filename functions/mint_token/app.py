"""mintInterruptToken — POST /runs/{runId}/interrupts/{nodeId}/tokens (scope interrupts:mint).

Body `{intent, sub?, ttlSeconds?}` (closed) -> 201 `{token, url, expiresAt}`. The answer carries a
token: never cached, never in a Location header, never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.body import json_body
from waitgate.http.idempotency import idempotency_ref
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import TOKEN_RESPONSE_HEADERS, answer_response
from waitgate.http.router import Response
from waitgate.run.records import RunRef, check_node_id
from waitgate.service.mint_token import mint_answer, parse_mint_request
from waitgate.wiring.composition import mint_dependencies
from waitgate.wiring.observability import observed

logger = Logger()
app = new_http_app()


@app.post("/runs/<runId>/interrupts/<nodeId>/tokens")
def mint(runId: str, nodeId: str) -> Response[str]:
    caller = bearer_caller(app, "interrupts:mint")
    run = RunRef.parse(caller.tenant_id, path_parameter(app, "runId"))
    node_id = check_node_id(path_parameter(app, "nodeId"))
    body = json_body(app.current_event.raw_event)
    request = parse_mint_request(body)
    ref = idempotency_ref(
        app.current_event.raw_event,
        "mintInterruptToken",
        caller,
        {"runId": run.run_id, "nodeId": node_id, "body": body},
    )
    return answer_response(
        mint_answer(run, node_id, request, ref, mint_dependencies()), headers=TOKEN_RESPONSE_HEADERS
    )


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
