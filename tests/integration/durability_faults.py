"""Faults injected into the real moto clients the handlers use (botocore hooks), and the table's real
stream records handed to the outbox consumer as Lambda's event source mapping would."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import boto3
from botocore.awsrequest import AWSResponse

REGION = "us-east-1"


class ProcessDeath(BaseException):
    """The Lambda process dies here: no handler's except clause sees it (it is no Exception)."""


def error_response(code: str, status: int = 400) -> tuple[AWSResponse, dict[str, Any]]:
    parsed = {
        "Error": {"Code": code, "Message": f"{code} (injected)"},
        "ResponseMetadata": {"HTTPStatusCode": status, "HTTPHeaders": {}},
    }
    return AWSResponse("https://fault.invalid/", status, {}, None), parsed


@contextmanager
def hooked(client: Any, event: str, hook: Callable[..., Any]) -> Iterator[None]:
    client.meta.events.register(event, hook)
    try:
        yield
    finally:
        client.meta.events.unregister(event, hook)


class SendCounter:
    """Counts SendTaskSuccess calls Step Functions accepted (the effective deliveries)."""

    def __init__(self) -> None:
        self.accepted = 0

    def __call__(self, http_response: Any, parsed: Any, **_: Any) -> None:
        if getattr(http_response, "status_code", 500) < 300:
            self.accepted += 1


class TableStream:
    """Reads the table's stream from where it was last read, as Lambda's poller does.

    Through moto's streams backend itself: botocore 1.44 signs DynamoDB Streams calls with the
    `dynamodb` scope, which moto 5.2 routes to its DynamoDB handler ("Not yet implemented")."""

    def __init__(self, table_name: str) -> None:
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.dynamodbstreams.models import dynamodbstreams_backends

        self.backend = dynamodbstreams_backends[DEFAULT_ACCOUNT_ID][REGION]
        table = boto3.client("dynamodb", region_name=REGION).describe_table(TableName=table_name)["Table"]
        self.arn = table["LatestStreamArn"]
        shard = self.backend.describe_stream(self.arn)["Shards"][0]["ShardId"]
        self.iterator = self.backend.get_shard_iterator(self.arn, shard, "TRIM_HORIZON").arn

    def next_batch(self) -> dict[str, Any]:
        """The Lambda event for every record written since the last batch."""
        answer = self.backend.get_records(self.iterator, 1000)
        self.iterator = answer["NextShardIterator"]
        return {"Records": [self._lambda_record(record) for record in answer["Records"]]}

    def _lambda_record(self, record: dict[str, Any]) -> dict[str, Any]:
        dynamodb = dict(record["dynamodb"])
        created = dynamodb.get("ApproximateCreationDateTime")
        if isinstance(created, datetime):
            dynamodb["ApproximateCreationDateTime"] = created.timestamp()
        return {
            "eventID": record["eventID"],
            "eventName": record["eventName"],
            "eventVersion": record.get("eventVersion", "1.1"),
            "eventSource": "aws:dynamodb",
            "awsRegion": REGION,
            "dynamodb": json.loads(json.dumps(dynamodb, default=str)),
            "eventSourceARN": self.arn,
        }
