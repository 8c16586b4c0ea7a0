"""The webhooks-out delivery queue (SQS): the fan-out sends each queued delivery as its own message
(SendMessageBatch, 10 at a time), the redrive sends parked ones again. A message carries names only
(tenant, subscription, run, seq, type, time): never the event's payload or the secret."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, is_transient
from waitgate.errors import TemporarilyUnavailableError
from waitgate.subscriptions.records import QueuedDelivery

Client = Any  # a boto3 SQS client
BATCH = 10  # SendMessageBatch's own limit


class SqsWebhookQueue:
    def __init__(self, client: Client, queue_name: str) -> None:
        self._client = client
        self._name = queue_name
        self._url = ""

    def enqueue(self, deliveries: Sequence[QueuedDelivery]) -> None:
        for start in range(0, len(deliveries), BATCH):
            chunk = deliveries[start : start + BATCH]
            entries = [
                {"Id": str(index), "MessageBody": json.dumps(delivery.to_document(), separators=(",", ":"))}
                for index, delivery in enumerate(chunk)
            ]
            try:
                if not self._url:
                    self._url = str(self._client.get_queue_url(QueueName=self._name)["QueueUrl"])
                answer = self._client.send_message_batch(QueueUrl=self._url, Entries=entries)
            except AWS_CALL_ERRORS as error:
                if is_transient(error):
                    raise TemporarilyUnavailableError("The delivery queue is busy; retry.") from error
                raise
            if answer.get("Failed"):
                raise TemporarilyUnavailableError(
                    f"The delivery queue did not take {len(answer['Failed'])} of {len(entries)} deliveries."
                )
