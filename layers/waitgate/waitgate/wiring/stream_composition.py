"""Wires the table stream's one reader (service/dispatch_stream): which consumers a record is work for,
each bound to its use case and dependencies; where the progress of a failed record is kept; where a
Slack refresh that was given up on is parked. The decision ledger (docs/ledger.md) follows the outbox:
it is retried as long as the mapping retries, since a fact left out is a ledger incomplete."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from waitgate.run.clock import SystemClock
from waitgate.wiring.composition import aws_client, deadline_scheduler, delivery_dependencies, store
from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.ports import StreamProgress
    from waitgate.service.append_to_ledger import LedgerDependencies
    from waitgate.service.dispatch_stream import Consumer, RoutedRecord

OUTBOX, LEDGER, SLACK_REFRESH, SCHEDULE_CLEANUP = "outbox", "ledger", "slack-refresh", "schedule-cleanup"
WEBHOOKS_OUT = "webhooks-out"  # docs/webhooks-out.md: retried as long as the mapping retries
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

    from waitgate.adapters.dynamodb_stream import (
        decided_interrupt,
        ended_interrupt,
        inserted_event,
        lifecycle_event,
        undelivered_ending,
    )
    from waitgate.ledger.entries import is_ledgered
    from waitgate.service.dispatch_stream import Consumer

    change = raw.get("dynamodb", {})
    stream = DynamoDBRecord(dict(raw)).dynamodb
    new, old = (stream.new_image, stream.old_image) if stream else ({}, {})
    consumers: list[Consumer] = []
    if (ending := undelivered_ending(new)) is not None:
        consumers.append(Consumer(OUTBOX, lambda: _deliver(ending)))
    source = inserted_event(raw)
    if source is not None and settings().ledger_key_id and is_ledgered(source.event.type):
        consumers.append(Consumer(LEDGER, lambda: _append(source)))
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
    webhooks_out = settings().webhook_queue and settings().directory_table_name
    if webhooks_out and source is not None and (event := lifecycle_event(source)) is not None:
        consumers.append(Consumer(WEBHOOKS_OUT, lambda: _fan_out(event)))
    return consumers


def _fan_out(event: Any) -> object:
    from waitgate.service.fan_out_webhooks import fan_out
    from waitgate.wiring.subscription_composition import delivery_queue, subscriptions

    return fan_out(event, subscriptions(), delivery_queue())


def stream_progress() -> StreamProgress:
    from waitgate.adapters.dynamodb_stream_progress import DynamoDbStreamProgress

    return DynamoDbStreamProgress(aws_client("dynamodb"), settings().table_name)


def _deliver(target: Any) -> object:
    from waitgate.service.deliver_resolution import deliver_undelivered

    return deliver_undelivered(target.run, target.node_id, target.interrupt_id, delivery_dependencies())


def _append(source: Any) -> object:
    from waitgate.service.append_to_ledger import append_to_ledger

    return append_to_ledger(source.run, source.event, ledger_dependencies())


@lru_cache(maxsize=1)
def ledger_dependencies() -> LedgerDependencies:
    from waitgate.adapters.dynamodb_ledger import DynamoDbLedger
    from waitgate.adapters.kms_ledger_signer import KmsLedgerSigner
    from waitgate.service.append_to_ledger import LedgerDependencies

    ledger = DynamoDbLedger(aws_client("dynamodb"), settings().table_name)
    signer = KmsLedgerSigner(aws_client("kms"), settings().ledger_key_id)
    return LedgerDependencies(ledger=ledger, signer=signer, store=store(), clock=SystemClock())


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
