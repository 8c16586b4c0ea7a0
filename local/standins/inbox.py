"""The local inbox: an SQS queue subscribed to every SNS topic of the stack, so a person on this
machine sees the notifications AWS would have sent, and a log of them (`waitgate dev-inbox` reads it).

Not part of template.yaml: a deployed stack has real subscribers (e-mail, programs). A pump moves each
message from the queue to `inbox.jsonl` in the state directory, one notice per line, oldest first: the
log keeps every notice (any number, across restarts) where a queue would hand out ten at a time. It
waits for work as the SQS pollers do (local.standins.queue_poller): woken when the queue gets a message.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from local.standins.pumps import Pump
from local.state.state_dir import StateDir

if TYPE_CHECKING:  # `waitgate dev-inbox` reads the log without boto3: only the stack creates the inbox
    from local.template.resources import StackContext

INBOX_QUEUE_NAME = "waitgate-local-inbox"
Notice = dict[str, Any]  # channel (sns, email, slack), recipient, runId, nodeId, subject, link, ...


def create_inbox(context: StackContext, topic_arns: list[str]) -> str:
    """The inbox queue's URL, subscribed (envelopes, not raw delivery) to each of `topic_arns`."""
    sqs, sns = context.clients("sqs"), context.clients("sns")
    url: str = sqs.create_queue(QueueName=INBOX_QUEUE_NAME)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    for topic_arn in topic_arns:
        sns.subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=arn)
    return url


def notice_of(message: dict[str, Any]) -> Notice:
    """What a person needs from one SNS envelope: who, what, which run, the subject and the link."""
    envelope = json.loads(message["Body"])
    attributes = {
        name: value.get("Value", "") for name, value in envelope.get("MessageAttributes", {}).items()
    }
    try:
        document = json.loads(envelope.get("Message", ""))
    except ValueError:
        document = {}
    document = document if isinstance(document, dict) else {}
    sent_ms = int(message.get("Attributes", {}).get("SentTimestamp", "0"))
    return {
        "messageId": str(message["MessageId"]),
        "sentAt": datetime.fromtimestamp(sent_ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
        "channel": "sns",
        "recipient": attributes.get("recipient", ""),
        "kind": attributes.get("kind", ""),
        "runId": attributes.get("runId", ""),
        "nodeId": str(document.get("nodeId", "")),
        "subject": str(envelope.get("Subject") or document.get("subject", "")),
        "link": str(document.get("link", "")),
    }


class InboxLog:
    """`inbox.jsonl`: appended by the stack's pump only, read by anyone (a torn last line is skipped)."""

    def __init__(self, state_dir: StateDir) -> None:
        self.path = state_dir.inbox_log

    def append(self, notices: list[Notice]) -> None:
        """Appended by the inbox pump, the sent-mail pump and the Slack stand-in: one write each."""
        with self.path.open("a", encoding="utf-8") as log:
            log.write("".join(json.dumps(notice) + "\n" for notice in notices))

    def notices(self) -> list[Notice]:
        """Every notice, oldest first, each once (a message moved twice is listed once); a Slack
        message as it is after its updates (an `updates` line replaces its `message`)."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        seen: dict[str, Notice] = {}
        for line in lines:
            try:
                notice = json.loads(line)
            except ValueError:
                continue
            key = str(notice.get("messageId", len(seen)))
            if notice.get("updates"):
                if key in seen:
                    seen[key] = {**seen[key], "message": notice.get("message")}
                continue
            seen.setdefault(key, {"channel": "sns", **notice})
        return list(seen.values())


class InboxPump:
    """Moves what the queue holds to the log, then deletes it from the queue (at least once)."""

    def __init__(self, clients: Any, queue_url: str, log: InboxLog) -> None:
        self._clients, self._queue_url, self._log = clients, queue_url, log

    def tick(self) -> None:
        """What the queue holds now (at start, as the stack stops, and when the queue got a message)."""
        sqs = self._clients("sqs")
        while messages := sqs.receive_message(
            QueueUrl=self._queue_url,
            MaxNumberOfMessages=10,
            VisibilityTimeout=30,
            WaitTimeSeconds=0,
            MessageSystemAttributeNames=["SentTimestamp"],  # (AttributeNames: deprecated, queue attributes)
        ).get("Messages", []):
            self._log.append(sorted((notice_of(m) for m in messages), key=lambda n: n["sentAt"]))
            sqs.delete_message_batch(
                QueueUrl=self._queue_url,
                Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)],
            )


def count_notices(state_dir: StateDir) -> int:
    return len(InboxLog(state_dir).notices())


def inbox_pump(context: StackContext, queue_url: str, log: InboxLog) -> Pump:
    """Moves what the inbox queue at `queue_url` (`create_inbox`'s) gets to `log`."""
    from local.standins.queue_poller import next_wait, woken_by_its_queue

    pump = InboxPump(context.clients, queue_url, log)

    def tick() -> float | None:
        pump.tick()
        return next_wait(context.account_id, context.region, INBOX_QUEUE_NAME, received=False)

    return woken_by_its_queue("inbox", tick, INBOX_QUEUE_NAME, final_tick=pump.tick)
