"""deliverWebhook — the webhooks-out deliverer: WebhookDeliveryQueue (SQS) → here → the subscriber.

Each message names one event for one subscription (service/fan_out_webhooks queued it); one signed
Standard Webhooks POST per attempt (service/deliver_webhook). A failed attempt is made visible again
after its backoff (ChangeMessageVisibility) and reported as this batch's failure; after the last
attempt the delivery is parked in the subscription's log (alarm: WebhookDeliveriesParkedAlarm) and the
message taken off the queue. A message that fails the function itself again and again goes to the
queue's redrive target, WebhookDeliveryFailuresQueue (its own alarm). docs/webhooks-out.md.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.adapters.sqs_redelivery import SqsRedelivery
from waitgate.errors import DeliveryFailedError
from waitgate.service.deliver_webhook import deliver_webhook
from waitgate.subscriptions.records import QueuedDelivery
from waitgate.wiring.composition import aws_client
from waitgate.wiring.observability import observed
from waitgate.wiring.subscription_composition import webhook_delivery_dependencies

logger = Logger()
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


@cache
def redelivery() -> SqsRedelivery:
    return SqsRedelivery(aws_client("sqs"))


def record_handler(record: SQSRecord) -> None:
    try:
        delivery = QueuedDelivery.from_document(json.loads(record.body))
    except ValueError:
        logger.warning("not a webhook delivery: dropped", extra={"messageId": record.message_id})
        return
    receive = int(record.attributes.approximate_receive_count or 1)  # for the log: attempts are the log's
    outcome = deliver_webhook(delivery, webhook_delivery_dependencies())
    extra = {"webhookId": delivery.webhook_id, "subscriptionId": delivery.subscription_id, "receive": receive}
    if outcome.retry_in_seconds is not None:
        redelivery().later(record.event_source_arn, record.receipt_handle, outcome.retry_in_seconds)
        logger.warning("webhook not delivered", extra={**extra, "retryInSeconds": outcome.retry_in_seconds})
        raise DeliveryFailedError("the receiver did not take the webhook")
    logger.info("webhook", extra={**extra, "outcome": outcome.outcome})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
