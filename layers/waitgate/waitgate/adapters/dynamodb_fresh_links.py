"""When a fresh link last went to whom (docs/signed-links.md, "An expired link"), in the interrupts
table: `pk = FRESHLINK#<sha-256 of tenant, run, interrupt, principal>`, `sk = SENT`, `sentAt` (epoch
seconds) and a `ttl` a day later. One conditional put: it lands only when there is no such item or
its `sentAt` is a window old, so two requests at once send one link."""

from __future__ import annotations

from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.adapters.dynamodb_keys import fresh_link_pk, key_of
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import RunRef

Client = Any  # a boto3 DynamoDB client
KEPT_SECONDS = 24 * 3600  # the item's TTL past its send: far past any window


class DynamoDbFreshLinks:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def first_in_window(self, run: RunRef, interrupt_id: str, principal: str, now: int, window: int) -> bool:
        item = {
            **key_of(fresh_link_pk(run, interrupt_id, principal), "SENT"),
            "sentAt": {"N": str(now)},
            "ttl": {"N": str(now + KEPT_SECONDS)},
        }
        try:
            self._client.put_item(
                TableName=self._table,
                Item=item,
                ConditionExpression="attribute_not_exists(pk) OR sentAt <= :since",
                ExpressionAttributeValues={":since": {"N": str(now - window)}},
            )
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ConditionalCheckFailedException":
                return False
            if is_transient(error):
                raise TemporarilyUnavailableError("The store is busy; retry the request.") from error
            raise
        return True
