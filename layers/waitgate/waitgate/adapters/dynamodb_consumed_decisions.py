"""The consume-once receipts, in the interrupts table: one item per consumed decision, outside the
runs' partitions (no run read or stream filter sees it), written once by a conditional Put."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import JSONObject, RunRef

RECEIPT_SK = "RECEIPT"


def consumed_pk(run: RunRef, interrupt_id: str) -> str:
    return f"CONSUMED#{run.tenant_id}#{run.run_id}#{interrupt_id}"


class DynamoDbConsumedDecisions:
    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def consume_once(
        self, run: RunRef, interrupt_id: str, receipt: JSONObject, request_key: str | None
    ) -> JSONObject | None:
        key = {"pk": {"S": consumed_pk(run, interrupt_id)}, "sk": {"S": RECEIPT_SK}}
        item = {**key, "receipt": {"S": json.dumps(receipt, separators=(",", ":"), sort_keys=True)}}
        if request_key is not None:
            item["requestKey"] = {"S": _digest(request_key)}
        try:
            self._client.put_item(
                TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(pk)"
            )
        except AWS_CALL_ERRORS as error:
            if error_code(error) != "ConditionalCheckFailedException":
                raise _translate(error) from error
            return self._kept_for(key, request_key)
        return receipt

    def _kept_for(self, key: dict[str, Any], request_key: str | None) -> JSONObject | None:
        """The kept receipt when this request made it (a retry of a lost answer), else None."""
        try:
            kept = self._client.get_item(TableName=self._table, Key=key, ConsistentRead=True).get("Item")
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from error
        if kept is None or request_key is None or kept.get("requestKey", {}).get("S") != _digest(request_key):
            return None
        receipt: JSONObject = json.loads(kept["receipt"]["S"])
        return receipt


def _digest(request_key: str) -> str:
    return hashlib.sha256(request_key.encode("utf-8")).hexdigest()


def _translate(error: Exception) -> Exception:
    if is_transient(error):
        return TemporarilyUnavailableError("The store is busy; retry the request.")
    return error
