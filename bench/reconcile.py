"""The reconciler's pass does not grow with history: DynamoDB calls and items read for one pass, with
10 and with 20,000 delivered interrupts in the table (docs/durability.md, "The reconciler").

On moto in-process (mock_aws), the table built from template.yaml (its sparse `OutstandingByDue`
index included). The delivered interrupts are written straight into moto's table in the adapter's own
item format (`dynamodb_items.interrupt_item`: delivered, so without the index's keys, as the delivery
mark leaves them); a few pending ones, told and due for their next look, are what the pass finds.
Items read: what DynamoDB examined (a Query's ScannedCount, a BatchGetItem's items)."""

from __future__ import annotations

import os
import time
from typing import Any

import boto3

from bench.dynamodb_calls import counted
from bench.report import Row

GROUP = "reconciler"
REGION = "us-east-1"
FEW, MANY = 10, int(os.environ.get("WAITGATE_BENCH_RECONCILE_DELIVERED") or 20_000)
PENDING = 5  # waiting, told, due for a look: each is read and its next look set


def _record(n: int, status: str) -> Any:
    from waitgate.run.records import InterruptRecord, RunRef

    delivered = status == "resolved"
    return InterruptRecord(
        run=RunRef("default", f"run-{status}-{n:06d}"),
        node_id="Interrupt",
        interrupt_id=f"01J{status[0]}{n:022d}",
        kind="custom",
        key="label",
        payload={"kind": "custom", "key": "label", "data": {"customKind": "acme.label"}},
        task_token=f"token-{n}",
        requested_at="2026-11-30T09:00:00.000Z",
        status=status,  # type: ignore[arg-type]
        version=3 if delivered else 1,
        resume_value={"label": "printed"} if delivered else None,
        resolved_at="2026-11-30T09:30:00.000Z" if delivered else None,
        delivered_at="2026-11-30T09:30:00.100Z" if delivered else None,
        delivery_outcome="delivered" if delivered else None,
        noticed_at="2026-11-30T09:00:00.100Z",
    )


def _seed(table: str, records: list[Any]) -> None:
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.dynamodb.models import dynamodb_backends

    from waitgate.adapters.dynamodb_items import interrupt_item, snapshot_item
    from waitgate.run.records import RunSnapshot

    backend = dynamodb_backends[DEFAULT_ACCOUNT_ID][REGION]
    for record in records:
        backend.put_item(table, interrupt_item(record))
        backend.put_item(table, snapshot_item(RunSnapshot(record.run, "running", 2)))


def _one_pass(delivered: int) -> tuple[int, int, str, int]:
    from tests.integration.conftest import create_table_from_template
    from waitgate.service.reconcile import reconcile
    from waitgate.wiring import composition
    from waitgate.wiring.reconcile_composition import reconcile_dependencies

    table = f"bench-reconcile-{delivered}"
    create_table_from_template(boto3.client("dynamodb", region_name=REGION), "InterruptsTable", table)
    os.environ["TABLE_NAME"] = table
    composition.forget_instances()
    _seed(table, [_record(n, "pending") for n in range(PENDING)])
    _seed(table, [_record(n, "resolved") for n in range(delivered)])
    counter = counted(composition.aws_client("dynamodb"))
    with counter.counting():
        report = reconcile(reconcile_dependencies({"periodSeconds": 300, "graceSeconds": 60}))
    assert report.examined == PENDING and not report.healed, report
    return len(counter.calls), counter.scanned, f"{report.examined} looked at", report.examined


def _measure() -> list[Row]:
    started = time.perf_counter()
    few = _one_pass(FEW)
    many = _one_pass(MANY)
    seeded = time.perf_counter() - started
    note = f"{PENDING} waiting interrupts due in both tables; seeding and passing took {seeded:.0f} s"
    return [
        Row(GROUP, f"one pass, {FEW} delivered in table: calls", few[0], "calls", note=few[2]),
        Row(GROUP, f"one pass, {MANY:,} delivered in table: calls", many[0], "calls", f"= {few[0]}",
            few[0] == many[0], many[2]),
        Row(GROUP, f"one pass, {FEW} delivered in table: items read", few[1], "items", note=note),
        Row(GROUP, f"one pass, {MANY:,} delivered in table: items read", many[1], "items", f"= {few[1]}",
            few[1] == many[1]),
    ]  # fmt: skip


def run() -> list[Row]:
    from moto import mock_aws

    from local.patches.moto_atomicity import serialize_dynamodb_operations

    serialize_dynamodb_operations()
    saved = dict(os.environ)
    os.environ.update(
        AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION=REGION,
        POWERTOOLS_SERVICE_NAME="waitgate",
    )  # fmt: skip
    for name in ("AWS_ENDPOINT_URL", "AWS_PROFILE", "DIRECTORY_TABLE_NAME", "TOPIC_ARN", "TOKEN_SECRET_ARN"):
        os.environ.pop(name, None)
    try:
        with mock_aws():
            return _measure()
    finally:
        os.environ.clear()
        os.environ.update(saved)


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
