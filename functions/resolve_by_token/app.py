"""resolveInterruptByToken — POST /interrupts/{token}; the signed token is the credential.

Same body rules and races as the run surface (one resolve path); the token's `sub` is the decider.
Check order: token (401) -> expiry (410) -> intent (403) -> body (400) -> state (404, 409, 410).
The path holds the token: the event is never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.composition import keyring, resolve_dependencies
from waitgate.http.api import TOKEN_RESPONSE_HEADERS, answer_response, new_token_app, path_parameter
from waitgate.http.body import json_body, require_object_body
from waitgate.http.idempotency import idempotency_ref
from waitgate.service.token_access import resolve_by_token

logger = Logger()
app = new_token_app()


@app.post("/interrupts/<token>")
def resolve(token: str) -> Response[str]:
    event = app.current_event.raw_event
    answer = resolve_by_token(
        path_parameter(app, "token"),
        lambda: require_object_body(json_body(event)),
        keyring(),
        resolve_dependencies(),
        lambda caller, request: idempotency_ref(event, "resolveInterruptByToken", caller, request),
    )
    return answer_response(answer, headers=TOKEN_RESPONSE_HEADERS)


@logger.inject_lambda_context(clear_state=True, log_event=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
