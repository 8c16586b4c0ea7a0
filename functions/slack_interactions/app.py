"""slackInteractions — POST /channels/slack/interactions: the clicks of Slack messages' buttons,
acknowledged; the Slack decider (decideSlackClicks) decides them from the clicks queue.

Slack's request signature is the credential (no JWT): it is checked over the raw bytes, with the
signing secret of the tenant the request URL names (`?tenant=`, else the default tenant), before any
of the body is read; a forged, stale or replayed request is 401 problem+json and changes nothing. A
signed click is queued (the parsed click alone) and answered 200 with an empty body at once: Slack
wants its answer within 3 seconds, a cold start included, so this function imports and builds
nothing of the resolve path (docs/channels.md; bench/slack_ack.py measures it). The body is never
logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.errors import ValidationFailedError
from waitgate.http.body import raw_body
from waitgate.http.lean_answers import ProxyResult, answered, empty_answer
from waitgate.service.slack_acknowledge import SlackRequest, acknowledge
from waitgate.wiring.observability import observed
from waitgate.wiring.slack_ack_composition import acknowledge_dependencies

logger = Logger()


def interaction(event: dict[str, Any]) -> ProxyResult:
    tenant = (event.get("queryStringParameters") or {}).get("tenant")
    request = SlackRequest.of(_signed_bytes(event), event.get("headers") or {}, tenant)
    queued = acknowledge(request, acknowledge_dependencies())
    logger.info("slack interaction acknowledged", extra={"queued": queued is not None})
    return empty_answer()


def _signed_bytes(event: dict[str, Any]) -> bytes:
    """The raw body, as Slack signed it; a body that is not even base64 is one nobody signed."""
    try:
        return raw_body(event)
    except ValidationFailedError:
        return b""


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> ProxyResult:
    return answered(lambda: interaction(event))
