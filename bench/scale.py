"""Cost does not grow with data: DynamoDB calls and items read per resolve in a run with its own few
events and with 10,000 more, and per inspect-by-token with 1 and with 1,000 interrupts in the table.
On moto in-process (mock_aws), the table built from template.yaml's own properties; seeded items are
written with a client of their own, so only the operation's calls are counted."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import boto3

from bench.dynamodb_calls import Counted, counted
from bench.report import Row
from bench.samples import ACCEPT, APPROVAL
from bench.task_tokens import TaskTokens

GROUP = "scale"
REGION = "us-east-1"
MORE_EVENTS = 10_000
MORE_INTERRUPTS = 999


def _environment() -> str:
    import secrets
    import string

    os.environ.update(
        AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION=REGION,
        POWERTOOLS_SERVICE_NAME="waitgate", PUBLIC_BASE_URL="https://links.example.com",
    )  # fmt: skip
    for name in (
        "AWS_ENDPOINT_URL",
        "AWS_PROFILE",
        "TOPIC_ARN",
        "DIRECTORY_TABLE_NAME",
        "SCHEDULE_GROUP_NAME",
    ):
        os.environ.pop(name, None)
    from tests.integration.conftest import create_table_from_template

    table = create_table_from_template(
        boto3.client("dynamodb", region_name=REGION), "InterruptsTable", "bench"
    )
    key = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(64))
    secret = json.dumps({"signingKid": "k1", "keys": {}, "k1": key})
    created = boto3.client("secretsmanager", region_name=REGION).create_secret(
        Name="bench", SecretString=secret
    )
    os.environ.update(TABLE_NAME=table, TOKEN_SECRET_ARN=created["ARN"])
    from waitgate.wiring import composition

    composition.forget_instances()
    return table


class Seeder:
    """Items written straight into the table (25 per BatchWriteItem), outside the counted client."""

    def __init__(self, table: str) -> None:
        self.client = boto3.client("dynamodb", region_name=REGION)
        self.table = table

    def write(self, items: list[dict[str, Any]]) -> None:
        for start in range(0, len(items), 25):
            batch = [{"PutRequest": {"Item": item}} for item in items[start : start + 25]]
            self.client.batch_write_item(RequestItems={self.table: batch})

    def run_items(self, run_id: str) -> list[dict[str, Any]]:
        pk = {"S": f"RUN#default#{run_id}"}
        answer = self.client.query(
            TableName=self.table, KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": pk}
        )
        return list(answer["Items"])

    def events(self, run_id: str, count: int) -> int:
        """`count` more events after the run's own, the snapshot's counter moved past them; → events now."""
        items = self.run_items(run_id)
        snapshot = next(item for item in items if item["sk"]["S"] == "RUN")
        first = int(snapshot["nextSeq"]["N"])
        pk = snapshot["pk"]
        event = {"type": {"S": "interrupt.requested"}, "time": {"S": "2026-11-30T09:00:00Z"}}
        event.update(payload={"S": "{}"}, mode={"S": "debug"})
        self.write(
            [
                {**event, "pk": pk, "sk": {"S": f"EVT#{seq:012d}"}, "seq": {"N": str(seq)}}
                for seq in range(first, first + count)
            ]
        )
        self.write([{**snapshot, "nextSeq": {"N": str(first + count)}}])
        return sum(1 for item in items if item["sk"]["S"].startswith("EVT#")) + count

    def other_interrupts(self, run_id: str, count: int) -> None:
        """`count` other runs, each with its snapshot and its pending interrupt (copies of this run's)."""
        items = [i for i in self.run_items(run_id) if i["sk"]["S"] in ("RUN", "NODE#Interrupt")]
        self.write([
            {**item, "pk": {"S": f"RUN#default#other-{n:05d}"}, "runId": {"S": f"other-{n:05d}"}}
            for n in range(count) for item in items
        ])  # fmt: skip


def _suspend(tokens: TaskTokens) -> Any:
    from waitgate.run.records import RunRef
    from waitgate.service.request_interrupt import request_from_task_event
    from waitgate.wiring import request_composition

    event = tokens.task_event(APPROVAL)
    request_from_task_event(event, request_composition.request_dependencies())
    return RunRef("default", event["runId"])


def _resolve(run: Any) -> Callable[[], Any]:
    from waitgate.run.identity import Caller
    from waitgate.service.resolve_interrupt import ResolveCommand, resolve_interrupt
    from waitgate.wiring import composition

    caller = Caller(principal="alice", tenant_id="default", via="jwt")
    command = ResolveCommand(run=run, node_id="Interrupt", resume_value=dict(ACCEPT), caller=caller)

    def resolve() -> None:
        outcome = resolve_interrupt(command, composition.resolve_dependencies())
        assert outcome.status == "resolved" and outcome.delivered, outcome

    return resolve


def _inspect(run: Any) -> Callable[[], Any]:
    from waitgate.service.inspect_interrupt import inspect_by_token
    from waitgate.service.mint_token import MintRequest, mint_interrupt_token
    from waitgate.wiring import composition

    link = mint_interrupt_token(run, "Interrupt", MintRequest("resolve"), composition.mint_dependencies())
    return lambda: inspect_by_token(link.token, composition.token_dependencies())


def _count(counter: Counted, operation: Callable[[], Any]) -> tuple[int, int, str]:
    with counter.counting():
        operation()
    return len(counter.calls), counter.items, " + ".join(counter.calls)


def _pair(name: str, small: str, large: str, counts: tuple[tuple[int, int, str], ...]) -> list[Row]:
    (calls_a, items_a, ops_a), (calls_b, items_b, ops_b) = counts
    same = (calls_a, items_a) == (calls_b, items_b)
    return [
        Row(GROUP, f"{name}, {small}: calls", calls_a, "calls", note=ops_a),
        Row(GROUP, f"{name}, {large}: calls", calls_b, "calls", f"= {calls_a}", calls_a == calls_b, ops_b),
        Row(GROUP, f"{name}, {small}: items read", items_a, "items"),
        Row(GROUP, f"{name}, {large}: items read", items_b, "items", f"= {items_a}", same),
    ]


def _measure(table: str) -> list[Row]:
    from waitgate.wiring import composition

    counter = counted(composition.aws_client("dynamodb"))
    seeder = Seeder(table)
    tokens = TaskTokens(
        boto3.client("stepfunctions", region_name=REGION), boto3.client("sqs", region_name=REGION)
    )
    alone = _suspend(tokens)
    inspect_alone = _count(counter, _inspect(alone))
    seeder.other_interrupts(alone.run_id, MORE_INTERRUPTS)
    inspect_crowded = _count(counter, _inspect(alone))
    few = _suspend(tokens)
    own_events = len([i for i in seeder.run_items(few.run_id) if i["sk"]["S"].startswith("EVT#")])
    resolve_few = _count(counter, _resolve(few))
    many = _suspend(tokens)
    total_events = seeder.events(many.run_id, MORE_EVENTS)
    resolve_many = _count(counter, _resolve(many))
    return [
        *_pair("resolve", f"run with {own_events} event(s)", f"run with {total_events:,} events",
               (resolve_few, resolve_many)),
        *_pair("inspect by token", "1 interrupt in table", f"{MORE_INTERRUPTS + 1:,} in table",
               (inspect_alone, inspect_crowded)),
    ]  # fmt: skip


def run() -> list[Row]:
    from moto import mock_aws

    from local.patches.moto_atomicity import serialize_dynamodb_operations

    serialize_dynamodb_operations()
    saved = dict(os.environ)
    try:
        with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
            return _measure(_environment())
    finally:
        os.environ.clear()
        os.environ.update(saved)


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
