"""refreshSlackMessages — a DynamoDB Streams consumer of the interrupts table: once an interrupt is
decided (resolved, expired or cancelled), every Slack message of it says so and loses its buttons
(chat.update). A Slack that did not take an update fails that record only, and the mapping retries it.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.adapters.dynamodb_stream import decided_interrupt
from waitgate.channel_composition import refresh_dependencies
from waitgate.observability import observed
from waitgate.service.refresh_slack_messages import refresh_slack_messages

logger = Logger()
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def record_handler(record: DynamoDBRecord) -> None:
    stream = record.dynamodb
    target = decided_interrupt(stream.new_image if stream else {}, stream.old_image if stream else {})
    if target is None:
        return
    updated = refresh_slack_messages(target.run, target.node_id, target.interrupt_id, refresh_dependencies())
    logger.info("slack messages updated", extra={"interruptId": target.interrupt_id, "updated": updated})


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
