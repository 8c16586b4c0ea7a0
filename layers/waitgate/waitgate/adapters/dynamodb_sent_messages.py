"""The channels' ledger and the Slack replay guard, in the interrupts table (docs/channels.md).

Sent messages live in their run's partition: `pk = RUN#<tenant>#<run>`,
`sk = SENT#<nodeId>#<interruptId>#<channel>#<recipient>#<notice id>` (one Query finds an interrupt's
messages of a channel; a reminder is a notice, and a message, of its own). A Slack request already
seen: `pk = SLACKREQ#<sha-256 of its signature>`, `sk = SEEN`, with a TTL past Slack's 5-minute window.
"""

from __future__ import annotations

import hashlib
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.adapters.dynamodb_keys import run_pk
from waitgate.channels.contacts import ChannelName
from waitgate.channels.sent_messages import SentMessage
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import RunRef

Client = Any  # a boto3 DynamoDB client


def sent_prefix(node_id: str, interrupt_id: str, channel: str) -> str:
    return f"SENT#{node_id}#{interrupt_id}#{channel}#"


class DynamoDbSentMessages:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def find(
        self,
        run: RunRef,
        node_id: str,
        interrupt_id: str,
        channel: ChannelName,
        recipient: str,
        notice_id: str,
    ) -> SentMessage | None:
        key = _key(run_pk(run), sent_prefix(node_id, interrupt_id, channel) + f"{recipient}#{notice_id}")
        answer = _call(self._client.get_item, TableName=self._table, Key=key, ConsistentRead=True)
        return _message(answer["Item"]) if "Item" in answer else None

    def record(self, run: RunRef, node_id: str, interrupt_id: str, message: SentMessage) -> None:
        item = {
            **_key(
                run_pk(run),
                sent_prefix(node_id, interrupt_id, message.channel)
                + f"{message.recipient}#{message.notice_id}",
            ),
            "channel": {"S": message.channel},
            "recipient": {"S": message.recipient},
            "messageId": {"S": message.message_id},
            "slackChannel": {"S": message.slack_channel},
            "workflow": {"S": message.workflow},
            "title": {"S": message.title},
            "noticeId": {"S": message.notice_id},
            "kind": {"S": message.kind},
        }
        if message.buttons is not None:
            item["buttons"] = {"L": [{"S": action} for action in message.buttons]}
        _call(self._client.put_item, TableName=self._table, Item=item)

    def of_interrupt(
        self, run: RunRef, node_id: str, interrupt_id: str, channel: ChannelName
    ) -> tuple[SentMessage, ...]:
        arguments: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {
                ":pk": {"S": run_pk(run)},
                ":prefix": {"S": sent_prefix(node_id, interrupt_id, channel)},
            },
            "ConsistentRead": True,
        }
        found: list[SentMessage] = []
        while True:
            page = _call(self._client.query, **arguments)
            found.extend(_message(item) for item in page["Items"])
            if "LastEvaluatedKey" not in page:
                return tuple(found)
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]


class DynamoDbReplayGuard:
    """Once-only marks: Slack's request signatures (`SLACKREQ#`), MCP rounds (`MCPROUND#`, docs/mcp.md)."""

    def __init__(self, client: Client, table_name: str, prefix: str = "SLACKREQ#") -> None:
        self._client = client
        self._table = table_name
        self._prefix = prefix

    def first_use(self, key: str, expires_at_epoch: int) -> bool:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
        item = {**_key(f"{self._prefix}{digest}", "SEEN"), "ttl": {"N": str(expires_at_epoch)}}
        try:
            self._client.put_item(
                TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(pk)"
            )
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ConditionalCheckFailedException":
                return False
            raise _translate(error) from error
        return True


def _message(item: dict[str, Any]) -> SentMessage:
    channel: ChannelName = "slack" if item["channel"]["S"] == "slack" else "email"
    return SentMessage(
        channel=channel,
        recipient=item["recipient"]["S"],
        message_id=item["messageId"]["S"],
        slack_channel=item.get("slackChannel", {}).get("S", ""),
        workflow=item.get("workflow", {}).get("S", ""),
        title=item.get("title", {}).get("S", ""),
        notice_id=item.get("noticeId", {}).get("S", ""),
        kind=item.get("kind", {}).get("S", ""),
        buttons=tuple(v["S"] for v in item["buttons"]["L"]) if "buttons" in item else None,
    )


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _call(operation: Any, **arguments: Any) -> Any:
    try:
        return operation(**arguments)
    except AWS_CALL_ERRORS as error:
        raise _translate(error) from error


def _translate(error: Exception) -> Exception:
    if is_transient(error):
        return TemporarilyUnavailableError("The store is busy; retry the request.")
    return error
