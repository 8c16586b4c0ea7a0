"""The baseline of bench/throughput.py: the DynamoDB and Step Functions calls of one resolve, made
directly with boto3 (no HTTP, no handler, no layer): a BatchGetItem of the run's RUN and NODE# items,
a TransactWriteItems shaped like ours (snapshot on nextSeq, node on version, the two events of an
approval, the key's record), then SendTaskSuccess by the one writer whose transaction committed."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import ClientError

Item = dict[str, dict[str, Any]]
NODE_ID = "Interrupt"


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def _n(value: int) -> dict[str, str]:
    return {"N": str(value)}


def _json(value: Any) -> dict[str, str]:
    return _s(json.dumps(value, separators=(",", ":")))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class DirectResolver:
    """One resolve attempt as plain boto3 calls; `resolve` answers 200 (committed) or 409 (lost)."""

    def __init__(self, dynamodb: Any, sfn: Any, table: str) -> None:
        self.dynamodb = dynamodb
        self.sfn = sfn
        self.table = table

    def resolve(self, run_id: str, principal: str, value: dict[str, Any]) -> int:
        snapshot, node = self._read(f"RUN#default#{run_id}")
        if node["status"]["S"] != "pending":
            return 409
        resume_value = {**value, "decidedBy": principal}
        try:
            self.dynamodb.transact_write_items(TransactItems=self._writes(snapshot, node, resume_value))
        except ClientError as error:
            if error.response["Error"]["Code"] == "TransactionCanceledException":
                return 409
            raise
        self.sfn.send_task_success(taskToken=node["taskToken"]["S"], output=json.dumps(resume_value))
        return 200

    def _read(self, pk: str) -> tuple[Item, Item]:
        keys = [{"pk": _s(pk), "sk": _s("RUN")}, {"pk": _s(pk), "sk": _s(f"NODE#{NODE_ID}")}]
        answer = self.dynamodb.batch_get_item(
            RequestItems={self.table: {"Keys": keys, "ConsistentRead": True}}
        )
        found = {item["sk"]["S"]: item for item in answer["Responses"][self.table]}
        return found["RUN"], found[f"NODE#{NODE_ID}"]

    def _writes(self, snapshot: Item, node: Item, resume_value: dict[str, Any]) -> list[dict[str, Any]]:
        at = now()
        seen = int(snapshot["nextSeq"]["N"])
        version = int(node["version"]["N"])
        run = {k: v for k, v in snapshot.items() if k not in {"currentNodeId", "pendingInterruptId"}}
        run.update(status=_s("running"), nextSeq=_n(seen + 2))
        # deliveredAt rides in the commit so the stack's outbox (stream consumer) leaves these runs
        # alone: the baseline sends its own SendTaskSuccess, once.
        resolved = {**node, "status": _s("resolved"), "version": _n(version + 1)}
        resolved.update(resumeValue=_json(resume_value), resolvedAt=_s(at), deliveredAt=_s(at))
        resolved["deliveryOutcome"] = _s("delivered")
        return [
            self._put(run, "nextSeq = :seen", {":seen": _n(seen)}),
            self._put(resolved, "version = :version", {":version": _n(version)}),
            *(self._put(event) for event in self._events(node, resume_value, seen, at)),
            self._put(
                self._key_record(node, resume_value),
                "attribute_not_exists(pk) OR interruptId = :id",
                {":id": node["interruptId"]},
            ),
        ]

    def _put(
        self, item: Item, condition: str = "attribute_not_exists(pk)", values: Any = None
    ) -> dict[str, Any]:
        put: dict[str, Any] = {"TableName": self.table, "Item": item, "ConditionExpression": condition}
        if values:
            put["ExpressionAttributeValues"] = values
        return {"Put": put}

    @staticmethod
    def _events(node: Item, resume_value: dict[str, Any], seen: int, at: str) -> list[Item]:
        payload = {
            "nodeId": NODE_ID,
            "interruptId": node["interruptId"]["S"],
            "kind": node["kind"]["S"],
            "resumeValue": resume_value,
        }
        return [
            {
                "pk": node["pk"],
                "sk": _s(f"EVT#{seq:012d}"),
                "seq": _n(seq),
                "type": _s(kind),
                "time": _s(at),
                "payload": _json(payload),
                "mode": _s("updates"),
                "nodeId": _s(NODE_ID),
            }
            for seq, kind in ((seen, "interrupt.resolved"), (seen + 1, "approval.resolved"))
        ]

    @staticmethod
    def _key_record(node: Item, resume_value: dict[str, Any]) -> Item:
        return {
            "pk": node["pk"],
            "sk": _s(f"KEY#{node['key']['S']}"),
            "interruptId": node["interruptId"],
            "nodeId": _s(NODE_ID),
            "status": _s("resolved"),
            "resumeValue": _json(resume_value),
        }
