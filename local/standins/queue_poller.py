"""Lambda's SQS poller, played locally: each SQS event source mapping of the template is polled, its
messages handed to the function in batches, deleted when handled, and left on the queue (to come back
after their visibility timeout, or the backoff the handler set) when not.

A poller waits for work instead of asking for it: it receives (without waiting: WaitTimeSeconds 0)
when its queue got a message or a message's visibility changed (local.patches.moto_news wakes it), when
the queue's next message becomes visible again (read from moto, in this process), once at start, and
otherwise every FALLBACK_SECONDS in case it missed news. So an idle stack sends no ReceiveMessage, and
a stopping one waits for no long poll.

moto would invoke the function inside SendMessage itself, in the SNS publish of the notice: the
request that suspends would wait on the e-mail and Slack deliveries, and a failed delivery would be
made visible again at once instead of after its backoff. So the mapping is created disabled in moto
(`local.compute_resources`) and driven from here; moto's own redrive policy parks a message after
maxReceiveCount receives, as SQS does.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from local.patches import moto_news
from local.standins.pumps import Pump

if TYPE_CHECKING:
    from local.template.resources import StackContext

logger = logging.getLogger(__name__)
FALLBACK_SECONDS = 30.0  # between ticks that neither news nor a message coming back asked for
IDLE_RETRY_SECONDS = 1.0  # a visible message the tick could not receive: asked for again this late
MAX_BATCH = 10  # ReceiveMessage's own limit


@dataclass(frozen=True)
class QueueMapping:
    function_name: str
    queue_arn: str
    batch_size: int = 10
    report_item_failures: bool = False


def queue_name(queue_arn: str) -> str:
    return queue_arn.rsplit(":", 1)[-1]


def seconds_until_receivable(account_id: str, region: str, name: str) -> float | None:
    """How long until the queue's next message can be received (0: now), read from moto in this process
    (its private models: pin moto); None when the queue holds no message."""
    from moto.core.utils import unix_time_millis
    from moto.sqs.models import sqs_backends

    queue = sqs_backends[account_id][region].queues.get(name)
    if queue is None:
        return None
    moments = [max(message.visible_at, message.delayed_until) for message in list(queue._messages)]
    return max(0.0, (min(moments) - unix_time_millis()) / 1000) if moments else None


def next_wait(account_id: str, region: str, name: str, received: bool) -> float | None:
    """What a poller's tick returns: until its queue's next message comes back, at least a second when
    the tick received nothing (a message moto holds but will not hand out), FALLBACK_SECONDS when empty."""
    seconds = seconds_until_receivable(account_id, region, name)
    if seconds is None:
        return None
    return seconds if received else max(IDLE_RETRY_SECONDS, seconds)


class QueuePoller:
    def __init__(self, clients: Any, mapping: QueueMapping, region: str, account_id: str) -> None:
        self._clients, self._mapping, self._region, self._account = clients, mapping, region, account_id
        self._url = ""

    def tick(self) -> float | None:
        """Receives until the queue has nothing visible; the seconds until a message comes back."""
        sqs = self._clients("sqs")
        name = queue_name(self._mapping.queue_arn)
        if not self._url:
            self._url = sqs.get_queue_url(QueueName=name)["QueueUrl"]
        received = False
        while messages := sqs.receive_message(
            QueueUrl=self._url,
            MaxNumberOfMessages=min(MAX_BATCH, self._mapping.batch_size),
            MessageSystemAttributeNames=["All"],
            MessageAttributeNames=["All"],
            WaitTimeSeconds=0,
        ).get("Messages", []):
            received = True
            handled = self._invoke(messages)
            entries = [
                {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                for i, m in enumerate(messages)
                if m["MessageId"] in handled
            ]
            if entries:
                sqs.delete_message_batch(QueueUrl=self._url, Entries=entries)
            if len(entries) < len(messages):
                break  # what failed comes back later: received again when it is visible
        return next_wait(self._account, self._region, name, received)

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
    """One poller per SQS event source mapping the template declares."""
    pumps = []
    for mapping in context.queue_mappings:
        poller = QueuePoller(context.clients, mapping, context.region, context.account_id)
        pumps.append(woken_by_its_queue(f"sqs-{mapping.function_name}", poller.tick, mapping.queue_arn))
    return pumps


def woken_by_its_queue(
    name: str,
    tick: Callable[[], float | None],
    queue: str,
    final_tick: Callable[[], None] | None = None,
) -> Pump:
    """A pump that ticks at once, when its `queue` (an ARN or a name) changes (local.patches.moto_news)
    and as its tick asks; `final_tick` as it stops."""
    running = Pump(name, tick, FALLBACK_SECONDS)
    forget = moto_news.listen(moto_news.queue_changed(queue_name(queue)), running.wake)

    def last() -> None:
        forget()
        if final_tick is not None:
            final_tick()

    running.final_tick = last
    running.wake()  # its first tick at once: what came before the pump listened
    return running
