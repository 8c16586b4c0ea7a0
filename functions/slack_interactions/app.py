"""slackInteractions — POST /channels/slack/interactions: the clicks of Slack messages' buttons.

Slack's request signature is the credential (no JWT): a forged, stale or replayed request is 401
problem+json and changes nothing. A signed click is answered 200 with an empty body once it is
handled — a decision through the one resolve path, or an ephemeral explanation to the clicker — well
within Slack's 3 seconds (docs/channels.md). The body is never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.channel_composition import slack_dependencies
from waitgate.http.resolver import new_http_app
from waitgate.observability import observed
from waitgate.service.slack_interaction import SlackRequest, answer_interaction

logger = Logger()
app = new_http_app()


@app.post("/channels/slack/interactions")
def interaction() -> Response[str]:
    event = app.current_event
    request = SlackRequest.of(event.decoded_body or "", dict(event.headers))
    replied = answer_interaction(request, slack_dependencies())
    logger.info("slack interaction", extra={"replied": replied is not None})
    return Response(status_code=200, content_type="text/plain", body="")


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
