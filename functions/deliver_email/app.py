"""deliverEmail — the e-mail deliverer: SNS (filter policy `channels: ["email"]`) → SQS → here → SES v2.

One e-mail per notice, to the recipient's address in the directory (docs/channels.md). A refusal is
retried with backoff and parked on the parking queue after the last attempt; every attempt is a
notification.* debug event of the run.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.wiring.channel_composition import email_channel
from waitgate.wiring.delivery_queue import deliver_record, new_processor
from waitgate.wiring.observability import observed

logger = Logger()
processor = new_processor()


def record_handler(record: SQSRecord) -> None:
    deliver_record(record, email_channel())


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
