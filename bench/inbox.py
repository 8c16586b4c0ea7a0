"""The inbox's cost does not depend on history: DynamoDB calls and items read for one page of
`GET /interrupts?status=pending`, with 10 and with 100,000 resolved interrupts in the table; and what
one pending interrupt's copy in the index weighs, with the projection of the former index
(`PendingByDeadline`: whole items but the task token) and of `InboxByDeadline` (the bounded summary).

On moto in-process (mock_aws), the table built from template.yaml's own properties (its sparse
`InboxByDeadline` index included). The resolved interrupts are written straight into the table in
the adapter's own item format (`dynamodb_items.interrupt_item`, status resolved: so without the
index's key attributes, as a resolution writes them), put into moto's table directly (100,000 HTTP
requests would take minutes); only the page's calls are counted. Items read: what DynamoDB
examined (a Query's ScannedCount), filtered or not."""

from __future__ import annotations

import os
import time
from typing import Any

import boto3

from bench.dynamodb_calls import counted
from bench.report import Row

GROUP = "inbox"
REGION = "us-east-1"
FEW, MANY = 10, int(os.environ.get("WAITGATE_BENCH_INBOX_RESOLVED") or 100_000)
PENDING = 5  # alice's pending interrupts, in both tables


def _record(n: int, status: str, principal: str = "alice") -> Any:
    from waitgate.run.records import InterruptRecord, RunRef

    data = {
        "artifactId": f"a{n}",
        "artifactType": "release",
        "title": f"Ship {n}?",
        "approversList": [principal],
    }
    return InterruptRecord(
        run=RunRef("default", f"run-{status}-{n:06d}"),
        node_id="Interrupt",
        interrupt_id=f"01J{n:023d}",
        kind="approval",
        key="ship",
        payload={"kind": "approval", "key": "ship", "data": data},
        task_token=f"token-{n}",
        requested_at="2026-11-30T09:00:00.000Z",
        status=status,  # type: ignore[arg-type]
        version=2 if status == "resolved" else 1,
        resume_value={"action": "accept", "decidedAt": "2026-11-30T09:30:00Z"}
        if status == "resolved"
        else None,
        resolved_at="2026-11-30T09:30:00.000Z" if status == "resolved" else None,
    )


def _seed(table: str, records: list[Any]) -> None:
    """Each record as the adapter lays it out (`interrupt_item`), put into moto's table directly: the
    same item a commit writes (moto indexes it as DynamoDB would), without an HTTP request per item."""
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.dynamodb.models import dynamodb_backends

    from waitgate.adapters.dynamodb_items import interrupt_item

    backend = dynamodb_backends[DEFAULT_ACCOUNT_ID][REGION]
    for record in records:
        backend.put_item(table, interrupt_item(record))


def _environment(table: str) -> None:
    from tests.integration.conftest import create_table_from_template
    from tests.support.links import generated_secret

    create_table_from_template(boto3.client("dynamodb", region_name=REGION), "InterruptsTable", table)
    os.environ["TABLE_NAME"] = table
    secrets = boto3.client("secretsmanager", region_name=REGION)  # the keyring the page cursors need
    os.environ["TOKEN_SECRET_ARN"] = secrets.create_secret(
        Name=f"{table}-token", SecretString=generated_secret()
    )["ARN"]
    from waitgate.wiring import composition

    composition.forget_instances()


def _one_page(resolved: int) -> tuple[int, int, str, int]:
    from waitgate.run.identity import Caller
    from waitgate.service.list_interrupts import InboxQuery, list_interrupts
    from waitgate.wiring import composition

    _environment(f"bench-inbox-{resolved}")
    _seed(os.environ["TABLE_NAME"], [_record(n, "pending") for n in range(PENDING)])
    _seed(os.environ["TABLE_NAME"], [_record(n, "resolved") for n in range(resolved)])
    counter = counted(composition.aws_client("dynamodb"))
    alice = Caller("alice", "default", "jwt", frozenset({"approvals:respond"}))
    query = InboxQuery.parse({"status": "pending", "limit": "50"}, alice)
    with counter.counting():
        body = list_interrupts(query, alice, composition.inbox_dependencies())
    assert len(body["items"]) == PENDING, body
    return len(counter.calls), counter.scanned, " + ".join(counter.calls), len(body["items"])


def _measure() -> list[Row]:
    started = time.perf_counter()
    few = _one_page(FEW)
    many = _one_page(MANY)
    seeded = time.perf_counter() - started
    same_calls, same_items = few[0] == many[0], few[1] == many[1]
    note = f"{PENDING} pending of alice's in both tables; seeding and reading took {seeded:.0f} s"
    return [
        *_index_item_rows(),
        Row(GROUP, f"one page of pending, {FEW} resolved in table: calls", few[0], "calls", note=few[2]),
        Row(GROUP, f"one page of pending, {MANY:,} resolved in table: calls", many[0], "calls", f"= {few[0]}",
            same_calls, many[2]),
        Row(GROUP, f"one page of pending, {FEW} resolved in table: items read", few[1], "items", note=note),
        Row(GROUP, f"one page of pending, {MANY:,} resolved in table: items read", many[1], "items",
            f"= {few[1]}", same_items),
    ]  # fmt: skip


def _projected(index: str, parameters: dict[str, str] | None = None) -> set[str]:
    from local.template.sam_template import table_properties

    table = table_properties("InterruptsTable", parameters)
    (found,) = (i for i in table["GlobalSecondaryIndexes"] if i["IndexName"] == index)
    keys = {k["AttributeName"] for k in found["KeySchema"]}
    return {"pk", "sk", *keys, *found["Projection"]["NonKeyAttributes"]}


def _index_item_rows() -> list[Row]:
    """The index's copy of a pending approval (a typical one, and one with a 60 KB description and a
    vote), as each projection takes it from the node item `interrupt_item` lays out: bytes as DynamoDB
    sizes them, and the write units each write of it costs the index."""
    from dataclasses import replace

    from bench.dynamodb_capacity import item_size, write_units
    from waitgate.adapters.dynamodb_items import interrupt_item

    former = _projected("PendingByDeadline", {"FormerPendingIndex": "keep"})
    summary = _projected("InboxByDeadline")
    typical = _record(0, "pending")
    large = replace(
        typical,
        payload={
            **typical.payload,
            "data": {**typical.payload["data"], "description": "Release notes. " * 4000},
        },
        votes=({"principal": "alice", "action": "accept", "decidedAt": "2026-11-30T10:00:00Z"},),
    )
    rows = []
    for name, record in (("typical", typical), ("60 KB payload", large)):
        item = interrupt_item(record)
        before = item_size({k: v for k, v in item.items() if k in former})
        after = item_size({k: v for k, v in item.items() if k in summary})
        note = f"{write_units(before):.0f} → {write_units(after):.0f} write units per index write"
        rows += [
            Row(GROUP, f"index item ({name}), former PendingByDeadline", before, "bytes", note=note),
            Row(GROUP, f"index item ({name}), InboxByDeadline", after, "bytes", "<= 4.5 KB", after <= 4608),
        ]
    return rows


def run() -> list[Row]:
    from moto import mock_aws

    from local.patches.moto_atomicity import serialize_dynamodb_operations

    serialize_dynamodb_operations()
    saved = dict(os.environ)
    os.environ.update(
        AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION=REGION,
        POWERTOOLS_SERVICE_NAME="waitgate",
    )  # fmt: skip
    for name in ("AWS_ENDPOINT_URL", "AWS_PROFILE", "DIRECTORY_TABLE_NAME", "TOKEN_SECRET_ARN"):
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
