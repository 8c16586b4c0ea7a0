"""deleteSchedules — a DynamoDB Streams consumer of the interrupts table: when an interrupt ends
(resolved, expired or cancelled), delete its one-time schedules that have not run yet (its deadline's,
its escalation steps'), so they neither fire nor linger (docs/escalation.md).

Best effort, off every request's path: a schedule left behind fires and changes nothing. A throttled
or failed delete fails that record alone (ReportBatchItemFailures) and the mapping retries it.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.adapters.dynamodb_stream import ended_interrupt
from waitgate.composition import deadline_scheduler
from waitgate.observability import observed

logger = Logger()
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def record_handler(record: DynamoDBRecord) -> None:
    ended = ended_interrupt(record.raw_event.get("dynamodb", {}))
    scheduler = deadline_scheduler()
    if ended is None or scheduler is None:
        return
    deleted = scheduler.delete_schedules(ended)
    logger.info("schedules deleted", extra={"interruptId": ended.interrupt_id, "deleted": deleted})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
