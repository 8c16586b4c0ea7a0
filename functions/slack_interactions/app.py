"""slackInteractions — POST /channels/slack/interactions: the clicks of Slack messages' buttons.

Slack's request signature is the credential (no JWT): it is checked over the raw bytes, with the
signing secret of the tenant the request URL names (`?tenant=`, else the default tenant), before any
of the body is read; a forged, stale or replayed request is 401 problem+json and changes nothing. A
signed request is answered 200 with an empty body once it is handled — a decision through the one
resolve path, an ephemeral explanation to the clicker, or nothing for what is not one of our clicks —
well within Slack's 3 seconds (docs/channels.md). The body is never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.channel_composition import slack_dependencies
from waitgate.errors import ValidationFailedError
from waitgate.http.body import raw_body
from waitgate.http.resolver import new_http_app
from waitgate.observability import observed
from waitgate.service.slack_interaction import SlackRequest, answer_interaction

logger = Logger()
app = new_http_app()


@app.post("/channels/slack/interactions")
def interaction() -> Response[str]:
    event = app.current_event
    request = SlackRequest.of(
        _signed_bytes(event.raw_event), dict(event.headers), event.get_query_string_value("tenant")
    )
    replied = answer_interaction(request, slack_dependencies())
    logger.info("slack interaction", extra={"replied": replied is not None})
    return Response(status_code=200, content_type="text/plain", body="")


def _signed_bytes(event: dict[str, Any]) -> bytes:
    """The raw body, as Slack signed it; a body that is not even base64 is one nobody signed."""
    try:
        return raw_body(event)
    except ValidationFailedError:
        return b""


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
