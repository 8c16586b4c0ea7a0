"""What the Slack decider does with a batch from the clicks queue (Slack → the acknowledgement →
the queue → here; docs/channels.md, "A click").

Each record is one click's document (`channels.click_documents`), decided by
`service.slack_interaction`. A click whose decision could not start — the tenant's Slack app, its
messages or the member's principal could not be read (TemporarilyUnavailableError) — is handed over
again after a short backoff (1 s, 2 s, 4 s, …: the clicker is waiting) and reported as this batch's
failure; after the queue's last receive its redrive policy sets it aside on the dead-letter queue,
whose alarm says so. The queue delivers at least once: a click handed over again is the same request
to the resolve path, which decides it once. A body that is no click is dropped, said once in the log.
"""

from __future__ import annotations

import json

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from waitgate.adapters.sqs_redelivery import backoff_seconds
from waitgate.errors import TemporarilyUnavailableError
from waitgate.service.slack_interaction import decide_queued
from waitgate.wiring.channel_composition import slack_dependencies
from waitgate.wiring.delivery_queue import redelivery

logger = Logger(child=True)
RETRY_BASE_SECONDS = 1


def decide_record(record: SQSRecord) -> None:
    """Decide one queued click; TemporarilyUnavailableError (after arranging the backoff) to retry it."""
    try:
        document = json.loads(record.body)
    except ValueError:
        logger.warning("not a queued click: dropped", extra={"messageId": record.message_id})
        return
    attempt = int(record.attributes.approximate_receive_count or 1)
    try:
        replied = decide_queued(document, slack_dependencies())
    except TemporarilyUnavailableError:
        delay = backoff_seconds(attempt, RETRY_BASE_SECONDS)
        redelivery().later(record.event_source_arn, record.receipt_handle, delay)
        logger.warning("click not decided yet", extra={"attempt": attempt, "retryInSeconds": delay})
        raise
    logger.info("slack click decided", extra={"attempt": attempt, "replied": replied is not None})
