"""getInboxPage — GET /inbox (public: the page holds no data) and getInboxItem — GET
/inbox/interrupts/{runId}/{nodeId} (scope approvals:respond or runs:read).

The page signs a person in with OpenID Connect authorization code + PKCE (no secret; the token stays
in the page's memory), lists what waits for them and opens one in place: the item route answers the
link page's own content and form for one pending interrupt the caller may act on (a `runs:read`
caller who may not sees it without a form), as an HTML fragment the page inserts. The form is sent
to the run surface with the JWT. Same CSP discipline as the link page: every script and style inline
under the response's nonce, no other origin but the token endpoint's (docs/inbox.md).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.auth import bearer_caller
from waitgate.http.inbox import fragment_response, page_base
from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.responses import page_response
from waitgate.http.router import Response
from waitgate.page.inbox import inbox_page
from waitgate.run.records import RunRef, check_node_id
from waitgate.service.inbox_item import open_item
from waitgate.service.list_interrupts import READ_SCOPES
from waitgate.wiring.composition import approval_config, directory, store
from waitgate.wiring.inbox_sign_in import inbox_sign_in
from waitgate.wiring.observability import observed

logger = Logger()
app = new_http_app()


@app.get("/inbox")
def page() -> Response[str]:
    return page_response(200, inbox_page(inbox_sign_in(), page_base(app.current_event.raw_event)))


@app.get("/inbox/interrupts/<runId>/<nodeId>")
def item(runId: str, nodeId: str) -> Response[str]:
    from waitgate.run.clock import SystemClock

    caller = bearer_caller(app, READ_SCOPES)
    run = RunRef.parse(caller.tenant_id, path_parameter(app, "runId"))
    node_id = check_node_id(path_parameter(app, "nodeId"))
    opened = open_item(run, node_id, caller, store(), directory(), approval_config(), SystemClock())
    return fragment_response(opened, caller, SystemClock().now())


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
