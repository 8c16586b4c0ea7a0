"""DynamoDB round trips per operation, counted on moto in-process (botocore `before-call.dynamodb`).

Ours: the Idempotency-Key record is read with the interrupt (one BatchGetItem) and written in the
resolution's own TransactWriteItems. Side by side: the same resolve built on the Powertools idempotency
utility (DynamoDBPersistenceLayer), wrapping our read + transaction without our key record.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bench.report import Row
from bench.samples import ACCEPT, APPROVAL

GROUP = "round trips"
COMMIT = "TransactWriteItems"


@dataclass
class CallLog:
    """The DynamoDB operations a block of code sent, in order."""

    calls: list[str] = field(default_factory=list)

    def __call__(self, model: Any = None, **_: Any) -> None:
        self.calls.append(model.name)

    @contextmanager
    def counting(self) -> Iterator[list[str]]:
        self.calls = []
        yield self.calls

    @staticmethod
    def to_decide(calls: list[str]) -> int:
        """Round trips up to and including the commit (the first transaction)."""
        return calls.index(COMMIT) + 1 if COMMIT in calls else len(calls)


@dataclass(frozen=True)
class Measured:
    name: str
    calls: list[str]

    def row(self, target: int | None = None, count: int | None = None, note: str = "") -> Row:
        value = len(self.calls) if count is None else count
        met = None if target is None else value <= target
        return Row(
            GROUP,
            self.name,
            value,
            "calls",
            f"≤ {target}" if target else "",
            met,
            note or " + ".join(self.calls[:value]),
        )


def _environment() -> None:
    import boto3

    from tests.integration.conftest import create_table_from_template
    from tests.support.links import generated_secret

    for name, value in {
        "AWS_ACCESS_KEY_ID": "bench",
        "AWS_SECRET_ACCESS_KEY": "bench",
        "AWS_DEFAULT_REGION": "us-east-1",
        "POWERTOOLS_SERVICE_NAME": "waitgate",
    }.items():
        os.environ[name] = value
    for name in (
        "AWS_ENDPOINT_URL",
        "AWS_PROFILE",
        "TOPIC_ARN",
        "DIRECTORY_TABLE_NAME",
        "SCHEDULE_GROUP_NAME",
    ):
        os.environ.pop(name, None)
    client = boto3.client("dynamodb", region_name="us-east-1")
    os.environ["TABLE_NAME"] = create_table_from_template(client, "InterruptsTable", "bench-interrupts")
    secret = boto3.client("secretsmanager", region_name="us-east-1").create_secret(
        Name="bench-token-secret", SecretString=generated_secret()
    )
    os.environ["TOKEN_SECRET_ARN"] = secret["ARN"]
    os.environ["PUBLIC_BASE_URL"] = "https://links.example.com"
    from waitgate.wiring import composition

    composition.forget_instances()


def _counted_client() -> CallLog:
    from waitgate.wiring import composition

    log = CallLog()
    composition.aws_client("dynamodb").meta.events.register("before-call.dynamodb", log)
    return log


def _keyed(key: str, operation: str, caller: Any, request: dict[str, Any]) -> Any:
    from waitgate.http.idempotency import idempotency_ref

    return idempotency_ref({"headers": {"Idempotency-Key": key}}, operation, caller, request)


def _suspend(harness: Any, log: CallLog, interrupt: dict[str, Any]) -> tuple[Any, list[str]]:
    from waitgate.run.records import RunRef
    from waitgate.service.request_interrupt import request_from_task_event
    from waitgate.wiring import request_composition

    suspended = harness.suspend(json.loads(json.dumps(interrupt)))
    with log.counting() as calls:
        request_from_task_event(suspended.task_event, request_composition.request_dependencies())
    return RunRef("default", suspended.run_id), list(calls)


def _resolve(log: CallLog, run: Any, principal: str, key: str | None) -> tuple[int, list[str]]:
    from waitgate.run.identity import Caller
    from waitgate.service.resolve_interrupt import ResolveCommand, resolve_answer
    from waitgate.wiring import composition

    caller = Caller(principal=principal, tenant_id="default", via="jwt")
    command = ResolveCommand(run=run, node_id="Interrupt", resume_value=dict(ACCEPT), caller=caller)
    request = {"runId": run.run_id, "nodeId": "Interrupt", "resumeValue": command.resume_value}
    ref = _keyed(key, "resolveInterruptByRun", caller, request) if key else None
    with log.counting() as calls:
        answer = resolve_answer(command, ref, composition.resolve_dependencies())
    return answer.status, list(calls)


def _inspect(log: CallLog, run: Any) -> list[str]:
    from waitgate.service.inspect_interrupt import inspect_by_token
    from waitgate.service.mint_token import MintRequest, mint_interrupt_token
    from waitgate.wiring import composition

    link = mint_interrupt_token(run, "Interrupt", MintRequest("resolve"), composition.mint_dependencies())
    with log.counting() as calls:
        inspect_by_token(link.token, composition.token_dependencies())
    return list(calls)


def _ours(harness: Any, log: CallLog) -> list[Row]:
    run, requested = _suspend(harness, log, APPROVAL)
    status, first = _resolve(log, run, "alice", "key-1")
    assert status == 200, status
    _, replayed = _resolve(log, run, "alice", "key-1")
    quorum = {**APPROVAL, "data": {**APPROVAL["data"], "requiredApprovals": 2}}
    voted_run, _ = _suspend(harness, log, quorum)
    vote_status, vote = _resolve(log, voted_run, "alice", "vote-1")
    assert vote_status == 202, vote_status
    inspect_run, _ = _suspend(harness, log, APPROVAL)
    inspected = _inspect(log, inspect_run)
    return [
        Measured("request_interrupt (suspend)", requested).row(),
        Measured("first keyed resolve: to decide (up to the commit)", first).row(2, CallLog.to_decide(first)),
        Measured("first keyed resolve: whole request (incl. delivery)", first).row(),
        Measured("keyed replay", replayed).row(1),
        Measured("keyed quorum vote (202)", vote).row(2),
        Measured("inspect by token", inspected).row(1),
    ]


def _powertools_resolver(table: str) -> Callable[..., dict[str, Any]]:
    """Our resolve without our key record, wrapped in Powertools' idempotent_function."""
    from aws_lambda_powertools.utilities.idempotency import (
        DynamoDBPersistenceLayer,
        IdempotencyConfig,
        idempotent_function,
    )

    from waitgate.run.identity import Caller
    from waitgate.run.records import RunRef
    from waitgate.service.resolve_interrupt import ResolveCommand, resolve_interrupt
    from waitgate.wiring import composition

    layer = DynamoDBPersistenceLayer(table_name=table, boto3_client=composition.aws_client("dynamodb"))

    @idempotent_function(
        data_keyword_argument="request",
        persistence_store=layer,
        config=IdempotencyConfig(expires_after_seconds=24 * 3600),
    )
    def resolve(request: dict[str, Any]) -> dict[str, Any]:
        caller = Caller(principal=request["principal"], tenant_id="default", via="jwt")
        command = ResolveCommand(
            run=RunRef("default", request["runId"]),
            node_id=request["nodeId"],
            resume_value=request["resumeValue"],
            caller=caller,
        )
        return resolve_interrupt(command, composition.resolve_dependencies()).to_json()

    return resolve


def _powertools_table() -> str:
    from waitgate.wiring import composition

    name = "bench-powertools-idempotency"
    composition.aws_client("dynamodb").create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
    )
    return name


def _powertools(harness: Any, log: CallLog) -> list[Row]:
    resolve = _powertools_resolver(_powertools_table())
    run, _ = _suspend(harness, log, APPROVAL)
    request = {"runId": run.run_id, "nodeId": "Interrupt", "resumeValue": dict(ACCEPT), "principal": "alice"}
    with warnings.catch_warnings():
        # Outside Lambda it cannot know the remaining time (so no in-progress expiry): see docs/idempotency.md
        warnings.filterwarnings("ignore", message="Couldn't determine the remaining time left")
        with log.counting() as calls:
            resolve(request=request)
        first = list(calls)
        with log.counting() as calls:
            resolve(request=request)
        replayed = list(calls)
    return [
        Measured("Powertools utility: first resolve, to decide", first).row(count=CallLog.to_decide(first)),
        Measured("Powertools utility: first resolve, whole request", first).row(),
        Measured("Powertools utility: replay", replayed).row(),
    ]


def _difference(rows: list[Row]) -> list[Row]:
    by_metric = {row.metric: row.value for row in rows}
    ours = by_metric["first keyed resolve: whole request (incl. delivery)"]
    theirs = by_metric["Powertools utility: first resolve, whole request"]
    return [
        Row(
            GROUP,
            "first resolve: Powertools utility minus ours",
            theirs - ours,
            "calls",
            "",
            None,
            "the utility's put INPROGRESS and update COMPLETED, around the same read + commit",
        )
    ]


def run() -> list[Row]:
    from moto import mock_aws

    from local.patches.moto_atomicity import serialize_dynamodb_operations
    from tests.integration.workflow_harness import WorkflowHarness

    serialize_dynamodb_operations()
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        _environment()
        log = _counted_client()
        harness = WorkflowHarness()
        rows = _ours(harness, log) + _powertools(harness, log)
    return rows + _difference(rows)


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
