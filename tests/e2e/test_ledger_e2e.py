"""The decision ledger on the local stack, as an auditor uses it (docs/ledger.md): four approvals
requested and decided over the run surface are in the tenant's chain; `waitgate ledger export` and
`verify` find it whole; then one entry is edited in the table, another deleted and two swapped, and
`verify` names each (exit 1)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_local_stack import RESUME_VALUE, resolve_path
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e
DECISIONS = 4


def request_and_decide(stack: LocalStackHandle, tenant: str, run_id: str) -> None:
    approval = {
        "kind": "approval",
        "key": "ship",
        "data": {"artifactId": run_id, "artifactType": "doc", "title": "Ship?", "actions": ["accept"]},
    }
    stack.sfn.start_execution(
        stateMachineArn=stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"tenantId": tenant, "interrupt": approval}),
    )
    node = {"pk": {"S": f"RUN#{tenant}#{run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    table = stack.table_names["InterruptsTable"]
    wait_for(
        lambda: stack.dynamodb.get_item(TableName=table, Key=node).get("Item"), what=f"{run_id} requested"
    )
    token = stack.jwt("alice", "approvals:respond", tenant=tenant)
    answer = stack.http.post(resolve_path(run_id), {"resumeValue": RESUME_VALUE}, token=token)
    assert answer.status == 200, answer.body


def exported(stack: LocalStackHandle, tenant: str, path: Path) -> list[dict[str, Any]]:
    answer = run_local(["ledger", "export", "--tenant", tenant, "--output", str(path)], stack.environment)
    assert answer.returncode == 0, answer.stderr
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def entry_key(tenant: str, seq: int) -> dict[str, Any]:
    return {"pk": {"S": f"LEDGER#{tenant}"}, "sk": {"S": f"ENTRY#{seq:012d}"}}


def test_verify_names_each_entry_edited_deleted_or_swapped_in_the_table(
    local_stack: LocalStackHandle, tmp_path: Path
) -> None:
    # Given four approvals of a tenant, each requested and accepted by alice
    tenant = f"ledger-{uuid.uuid4().hex[:8]}"
    for n in range(DECISIONS):
        request_and_decide(local_stack, tenant, f"{tenant}-{n}")
    # When the stream reader has appended the requests and decisions (the export has them all)
    export = tmp_path / "ledger.jsonl"
    wait_for(
        lambda: len(exported(local_stack, tenant, export)) == 2 * DECISIONS + 1,
        what=lambda: f"{2 * DECISIONS} entries and the head in {export.read_text(encoding='utf-8')}",
    )
    lines = exported(local_stack, tenant, export)
    assert [line.get("type") for line in lines[:-1]].count("interrupt.resolved") == DECISIONS
    assert {
        line["decidedBy"]["principal"] for line in lines[:-1] if line["type"] == "interrupt.resolved"
    } == {"alice"}
    # Then `ledger verify` finds it whole, with the local stack's kept key
    intact = run_local(["ledger", "verify", str(export)], local_stack.environment)
    assert intact.returncode == 0, intact.stdout + intact.stderr
    assert f"entries 1..{2 * DECISIONS}" in intact.stdout and "holds" in intact.stdout
    # When someone with write access to the table edits entry 2, deletes entry 4 and swaps 6 and 7
    dynamodb, table = local_stack.dynamodb, local_stack.table_names["InterruptsTable"]
    item = dynamodb.get_item(TableName=table, Key=entry_key(tenant, 2))["Item"]
    edited = {**json.loads(item["entry"]["S"]), "recordedAt": "2020-01-01T00:00:00Z"}
    dynamodb.put_item(TableName=table, Item={**item, "entry": {"S": json.dumps(edited)}})
    dynamodb.delete_item(TableName=table, Key=entry_key(tenant, 4))
    sixth, seventh = (dynamodb.get_item(TableName=table, Key=entry_key(tenant, n))["Item"] for n in (6, 7))
    dynamodb.put_item(TableName=table, Item={**sixth, "entry": seventh["entry"]})
    dynamodb.put_item(TableName=table, Item={**seventh, "entry": sixth["entry"]})
    # Then an export of it fails `ledger verify`, which names each, the first first
    tampered = tmp_path / "tampered.jsonl"
    exported(local_stack, tenant, tampered)
    refused = run_local(["ledger", "verify", str(tampered)], local_stack.environment)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    named = [line.strip() for line in refused.stdout.splitlines()[1:]]
    assert named == [
        "entry 2 was changed: its hash does not match its members",
        "entry 4 was removed",
        "entry 6 was reordered: it comes after entry 7",
    ], refused.stdout
