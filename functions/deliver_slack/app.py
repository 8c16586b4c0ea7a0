"""deliverSlack — the Slack deliverer: SNS (filter policy `channels: ["slack"]`) → SQS → here → Slack.

One Block Kit message per notice (chat.postMessage), to the recipient's DM or the tenant's channel
(docs/channels.md). A refusal is retried with backoff and parked on the parking queue after the last
attempt; every attempt is a notification.* debug event of the run.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.wiring.channel_composition import slack_web_api
from waitgate.wiring.delivery_queue import deliver_record, new_processor
from waitgate.wiring.observability import observed

logger = Logger()
processor = new_processor()


def record_handler(record: SQSRecord) -> None:
    deliver_record(record, slack_web_api())


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
