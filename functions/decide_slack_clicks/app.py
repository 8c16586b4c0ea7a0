"""decideSlackClicks — the Slack decider: the clicks queue (SQS) → here → the one resolve path.

Each record is a click the public `slackInteractions` function acknowledged (Slack had its 200):
the checks a click must pass, the resolve, and the reply only the clicker sees when it did not
simply decide (docs/channels.md, "A click"). A click whose decision could not start is retried with
a short backoff and set aside on the dead-letter queue after the last attempt; a click the queue
delivers again resolves nothing twice.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.wiring.delivery_queue import new_processor
from waitgate.wiring.observability import observed
from waitgate.wiring.slack_click_records import decide_record

logger = Logger()
processor = new_processor()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=decide_record, processor=processor, context=context
    )
