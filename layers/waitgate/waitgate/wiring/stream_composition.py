"""Wires the table stream's one reader (service/dispatch_stream): which consumers a record is work for,
each bound to its use case and dependencies; where the progress of a failed record is kept; where a
Slack refresh that was given up on is parked."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from waitgate.wiring.composition import aws_client, deadline_scheduler, delivery_dependencies
from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.ports import StreamProgress
    from waitgate.service.dispatch_stream import Consumer, RoutedRecord

OUTBOX, SLACK_REFRESH, SCHEDULE_CLEANUP = "outbox", "slack-refresh", "schedule-cleanup"
SLACK_REFRESH_RETRIES = 5  # as its own mapping had (docs/channels.md)
SCHEDULE_CLEANUP_RETRIES = 3  # best effort: a schedule left behind fires and changes nothing


def routed(raw_records: list[Mapping[str, Any]]) -> list[RoutedRecord]:
    """Each record of a stream batch with the consumers it is work for, the outbox first."""
    from waitgate.service.dispatch_stream import RoutedRecord

    return [
        RoutedRecord(str(raw.get("dynamodb", {}).get("SequenceNumber", "")), tuple(consumers_of(raw)))
        for raw in raw_records
    ]


def consumers_of(raw: Mapping[str, Any]) -> list[Consumer]:
    from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

    from waitgate.adapters.dynamodb_stream import decided_interrupt, ended_interrupt, undelivered_ending
    from waitgate.service.dispatch_stream import Consumer

    change = raw.get("dynamodb", {})
    stream = DynamoDBRecord(dict(raw)).dynamodb
    new, old = (stream.new_image, stream.old_image) if stream else ({}, {})
    consumers: list[Consumer] = []
    if (ending := undelivered_ending(new)) is not None:
        consumers.append(Consumer(OUTBOX, lambda: _deliver(ending)))
    if (decided := decided_interrupt(new, old)) is not None:
        consumers.append(
            Consumer(
                SLACK_REFRESH, lambda: _refresh(decided), SLACK_REFRESH_RETRIES, lambda e: _park(decided, e)
            )
        )
    if (ended := ended_interrupt(change)) is not None and (scheduler := deadline_scheduler()) is not None:
        consumers.append(
            Consumer(SCHEDULE_CLEANUP, lambda: scheduler.delete_schedules(ended), SCHEDULE_CLEANUP_RETRIES)
        )
    return consumers


def stream_progress() -> StreamProgress:
    from waitgate.adapters.dynamodb_stream_progress import DynamoDbStreamProgress

    return DynamoDbStreamProgress(aws_client("dynamodb"), settings().table_name)


def _deliver(target: Any) -> object:
    from waitgate.service.deliver_resolution import deliver_undelivered

    return deliver_undelivered(target.run, target.node_id, target.interrupt_id, delivery_dependencies())


def _refresh(target: Any) -> object:
    from waitgate.service.refresh_slack_messages import refresh_slack_messages
    from waitgate.wiring.channel_composition import refresh_dependencies

    return refresh_slack_messages(target.run, target.node_id, target.interrupt_id, refresh_dependencies())


def _park(target: Any, error: Exception) -> None:
    """The Slack refresh of a decided interrupt given up on: parked beside the undelivered notices."""
    queue_url = settings().parking_queue_url
    if not queue_url:
        return
    body = {
        "parked": SLACK_REFRESH,
        "tenantId": target.run.tenant_id,
        "runId": target.run.run_id,
        "nodeId": target.node_id,
        "interruptId": target.interrupt_id,
        "error": type(error).__name__,
    }
    aws_client("sqs").send_message(QueueUrl=queue_url, MessageBody=json.dumps(body))
