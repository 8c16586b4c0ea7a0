"""deliverResolution — the outbox: a DynamoDB Streams consumer of the interrupts table.

Delivers every interrupt ending that was committed but not delivered (the resolver died after the
commit, SendTaskSuccess was throttled, ...): it re-reads the item consistently, skips it if it was
delivered meanwhile, else sends SendTaskSuccess (resolved) or SendTaskFailure InterruptTimedOut
(expired) and marks it. Throttling or a 5xx fails that record only (ReportBatchItemFailures), and the
event source mapping retries it with backoff; a task that is gone is recorded, never retried.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.adapters.dynamodb_stream import undelivered_ending
from waitgate.composition import delivery_dependencies
from waitgate.observability import observed
from waitgate.service.deliver_resolution import deliver_undelivered

logger = Logger()
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def record_handler(record: DynamoDBRecord) -> None:
    target = undelivered_ending(record.dynamodb.new_image if record.dynamodb else {})
    if target is None:
        return
    result = deliver_undelivered(target.run, target.node_id, target.interrupt_id, delivery_dependencies())
    logger.info("outbox delivery", extra={"interruptId": target.interrupt_id, "result": result})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
