"""Lambda's SQS poller, played locally: each SQS event source mapping of the template is long-polled
(a receive waits up to a second for a message, and returns as soon as one comes), its messages handed
to the function in batches, deleted when handled, and left on the queue (to come back after their
visibility timeout, or the backoff the handler set) when not.

moto would invoke the function inside SendMessage itself, in the SNS publish of the notice: the
request that suspends would wait on the e-mail and Slack deliveries, and a failed delivery would be
made visible again at once instead of after its backoff. So the mapping is created disabled in moto
(`local.compute_resources`) and driven from here; moto's own redrive policy parks a message after
maxReceiveCount receives, as SQS does.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from local.standins.pumps import Pump

if TYPE_CHECKING:
    from local.template.resources import StackContext

logger = logging.getLogger(__name__)
# A receive waits this long for a message (moto wakes it when one is sent): an idle poller asks once a
# second instead of ten times, and a stopping stack waits at most this long for it.
LONG_POLL_SECONDS = 1
MAX_BATCH = 10  # ReceiveMessage's own limit


@dataclass(frozen=True)
class QueueMapping:
    function_name: str
    queue_arn: str
    batch_size: int = 10
    report_item_failures: bool = False


class QueuePoller:
    def __init__(self, clients: Any, mapping: QueueMapping, region: str) -> None:
        self._clients, self._mapping, self._region = clients, mapping, region
        self._url = ""

    def tick(self) -> None:
        sqs = self._clients("sqs")
        if not self._url:
            name = self._mapping.queue_arn.rsplit(":", 1)[-1]
            self._url = sqs.get_queue_url(QueueName=name)["QueueUrl"]
        while messages := sqs.receive_message(
            QueueUrl=self._url,
            MaxNumberOfMessages=min(MAX_BATCH, self._mapping.batch_size),
            MessageSystemAttributeNames=["All"],
            MessageAttributeNames=["All"],
            WaitTimeSeconds=LONG_POLL_SECONDS,
        ).get("Messages", []):
            handled = self._invoke(messages)
            entries = [
                {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                for i, m in enumerate(messages)
                if m["MessageId"] in handled
            ]
            if entries:
                sqs.delete_message_batch(QueueUrl=self._url, Entries=entries)
            if len(entries) < len(messages):
                return  # what failed comes back later: poll again at the next tick

    def _invoke(self, messages: list[dict[str, Any]]) -> set[str]:
        """The ids of the messages the function handled (none when it failed as a whole)."""
        event = {"Records": [self._record(m) for m in messages]}
        answer = self._clients("lambda").invoke(
            FunctionName=self._mapping.function_name, Payload=json.dumps(event).encode()
        )
        payload = answer["Payload"].read()
        if answer.get("FunctionError"):
            return set()
        failed: set[str] = set()
        if self._mapping.report_item_failures:
            body = json.loads(payload or b"{}")
            entries = body.get("batchItemFailures") or [] if isinstance(body, dict) else []
            failed = {str(entry.get("itemIdentifier")) for entry in entries}
        return {m["MessageId"] for m in messages} - failed

    def _record(self, message: dict[str, Any]) -> dict[str, Any]:
        """One record of the SQS event Lambda hands a function."""
        return {
            "messageId": message["MessageId"],
            "receiptHandle": message["ReceiptHandle"],
            "body": message["Body"],
            "attributes": message.get("Attributes", {}),
            "messageAttributes": {
                name: {
                    "stringValue": value.get("StringValue"),
                    "stringListValues": [],
                    "binaryListValues": [],
                    "dataType": value.get("DataType", "String"),
                }
                for name, value in message.get("MessageAttributes", {}).items()
            },
            "md5OfBody": message.get("MD5OfBody", ""),
            "eventSource": "aws:sqs",
            "eventSourceARN": self._mapping.queue_arn,
            "awsRegion": self._region,
        }


def queue_pumps(context: StackContext) -> list[Pump]:
    """One poller per SQS event source mapping the template declares; each tick waits by itself."""
    return [
        Pump(
            f"sqs-{mapping.function_name}",
            QueuePoller(context.clients, mapping, context.region).tick,
            interval_seconds=0,
        )
        for mapping in context.queue_mappings
    ]
