"""What both channel deliverers do with a batch from their SQS queue (SNS → queue → Lambda).

Each record is one notice (raw SNS delivery: the body is the notice's JSON document). A notice the
channel did not take is retried after a backoff (base, 2×, 4×, … seconds: the message is made visible
again that much later) and reported as this batch's failure; the queue's redrive policy parks it on
the parking queue after its last attempt (docs/channels.md). A body that is no notice is dropped, said
once in the log: retrying it cannot help.
"""

from __future__ import annotations

import json
from functools import cache

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from waitgate.adapters.sqs_redelivery import SqsRedelivery, backoff_seconds
from waitgate.channels.ports import Channel
from waitgate.errors import DeliveryFailedError
from waitgate.run.notices import InterruptNotice
from waitgate.service.deliver_notice import deliver_notice
from waitgate.wiring.channel_composition import channel_dependencies
from waitgate.wiring.composition import aws_client
from waitgate.wiring.settings import settings

logger = Logger(child=True)


def new_processor() -> BatchProcessor:
    """A batch whose every notice failed is answered as one (batchItemFailures), not raised: each
    message keeps the backoff it was given instead of the queue's whole visibility timeout."""
    return BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


@cache
def redelivery() -> SqsRedelivery:
    return SqsRedelivery(aws_client("sqs"))


def deliver_record(record: SQSRecord, channel: Channel) -> None:
    """Deliver one queued notice; DeliveryFailedError (after arranging the backoff) to retry it."""
    try:
        notice = InterruptNotice.from_document(json.loads(record.body))
    except ValueError:
        logger.warning("not a notice: dropped", extra={"messageId": record.message_id})
        return
    attempt = int(record.attributes.approximate_receive_count or 1)
    try:
        outcome = deliver_notice(notice, channel, attempt, channel_dependencies())
    except DeliveryFailedError:
        delay = backoff_seconds(attempt, settings().notification_retry_base_seconds)
        redelivery().later(record.event_source_arn, record.receipt_handle, delay)
        logger.warning(
            "notice not delivered",
            extra={"channel": channel.name, "attempt": attempt, "retryInSeconds": delay},
        )
        raise
    logger.info(
        "notice", extra={"channel": channel.name, "outcome": outcome, "interruptId": notice.interrupt_id}
    )
