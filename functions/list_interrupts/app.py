"""listInterrupts — GET /interrupts?status=pending|resolved (scope approvals:respond or runs:read).

`status=pending` (the default): the tenant's pending interrupts the caller may act on now, by deadline
then age, each with its quorum progress and the caller's own vote; `eligible=any` (runs:read) lists
every pending one of the tenant. `status=resolved&decidedBy=me`: what the caller decided, newest first.
Filters `kind`, `runId`; `limit` 1..100 (default 50); `cursor` = the previous answer's `next`.
`{items: [...], next?}`: one Query per page, so a page may hold fewer than `limit` (docs/inbox.md).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.resolver import new_http_app
from waitgate.http.responses import json_response
from waitgate.http.router import Response
from waitgate.service.list_interrupts import READ_SCOPES, InboxQuery, list_interrupts
from waitgate.wiring.composition import inbox_dependencies
from waitgate.wiring.observability import observed

logger = Logger()
app = new_http_app()
PARAMETERS = ("status", "eligible", "decidedBy", "kind", "runId", "limit", "cursor")


@app.get("/interrupts")
def interrupts() -> Response[str]:
    caller = bearer_caller(app, READ_SCOPES)
    event = app.current_event
    query = InboxQuery.parse({name: event.get_query_string_value(name) for name in PARAMETERS}, caller)
    body = list_interrupts(query, caller, inbox_dependencies())
    return json_response(200, body, headers={"Cache-Control": "no-store"})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
