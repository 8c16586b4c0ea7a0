"""The decision ledger on strict moto, through the real handlers (docs/ledger.md): a request, two votes
and the decision appended from the table stream by its one reader, the head signed by KMS Sign with an
ECC_NIST_P256 key and verified with GetPublicKey; a redelivered batch appends nothing; an append that
lost the head to another appender is built again after it; a Sign throttled fails only its record."""
# ruff: noqa: F811 (the escalation flow's fixtures, imported by name, are the tests' parameters)

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from cryptography.hazmat.primitives import serialization

from local.cli.ledger import export, signature_check
from tests.integration.durability_faults import TableStream, hooked
from tests.integration.test_escalation_flow import (  # noqa: F401 (fixtures)
    ACCEPT,
    approval,
    harness,
    inbox,
    requested,
    scheduler,
    vote,
)
from tests.integration.test_stream_dispatch import Calls, retried_from
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler
from waitgate.adapters.dynamodb_ledger import DynamoDbLedger
from waitgate.adapters.kms_ledger_signer import public_key_der
from waitgate.ledger.chain import Head, head_after, next_entry
from waitgate.ledger.verification import Verdict, verify_chain

REGION = "us-east-1"
QUORUM = {"approversList": ["alice", "bob"], "requiredApprovals": 2}


@pytest.fixture
def ledger_key(harness: WorkflowHarness, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """LedgerKey as the template declares it, named in the stream reader's environment."""
    from waitgate.wiring import composition

    kms = boto3.client("kms", region_name=REGION)
    key = kms.create_key(KeySpec="ECC_NIST_P256", KeyUsage="SIGN_VERIFY", Description="ledger")["KeyMetadata"]
    monkeypatch.setenv("LEDGER_KEY_ID", key["Arn"])
    composition.forget_instances()  # the stream reader's ledger, signer and clients too
    yield str(key["Arn"])
    composition.forget_instances()


def verified(table_name: str, key_id: str, tenant: str = "default") -> tuple[Verdict, list[dict[str, Any]]]:
    """The tenant's ledger exported as `waitgate ledger export` writes it, verified with GetPublicKey."""
    written = io.StringIO()
    export(DynamoDbLedger(boto3.client("dynamodb", region_name=REGION), table_name), tenant, None, written)
    lines = [json.loads(line) for line in written.getvalue().splitlines()]
    entries, head = [line for line in lines if "ledgerHead" not in line], lines[-1].get("ledgerHead")
    der = public_key_der(boto3.client("kms", region_name=REGION), key_id)
    public_key = serialization.load_der_public_key(der)
    return verify_chain(entries, head, signature_check(public_key, key_id)), entries  # type: ignore[arg-type]


def test_a_request_its_votes_and_decision_are_appended_and_the_head_verifies(
    harness: WorkflowHarness, ledger_key: str, table_name: str
) -> None:
    # Given a 2-of-2 approval, voted by alice (with a comment) and then bob
    run = requested(harness, approval(**QUORUM), None)
    stream = TableStream(table_name)
    assert vote(run, "alice", {**ACCEPT, "feedback": "numbers checked"})[0] == 202  # counted, not decided
    assert vote(run, "bob")[0] == 200
    # When the stream's reader gets the batch
    assert Handler("dispatch_stream")(stream.next_batch()) == {"batchItemFailures": []}
    # Then the ledger holds the request, alice's vote and the decision, in order, and verifies
    verdict, entries = verified(table_name, ledger_key)
    assert verdict.holds, verdict.problems
    assert [entry["type"] for entry in entries] == [
        "interrupt.requested",
        "interrupt.voted",
        "interrupt.resolved",
    ]
    requested_entry, voted, resolved = entries
    assert requested_entry["policy"] == QUORUM and requested_entry["interruptId"] == voted["interruptId"]
    assert voted["decidedBy"] == {"principal": "alice", "matchedBy": "list"}
    assert (voted["comment"], voted["via"]) == ("numbers checked", "run")
    assert resolved["decidedBy"]["principal"] == "bob" and resolved["tally"]["counts"] == {"accept": 2}
    assert resolved["via"] == "run"
    assert resolved["policy"] == QUORUM
    # And the head names the last entry, signed by the ledger's key with ECDSA_SHA_256
    head = DynamoDbLedger(boto3.client("dynamodb", region_name=REGION), table_name).head("default")[1]
    assert head is not None and (head["seq"], head["keyId"], head["algorithm"]) == (
        3,
        ledger_key,
        "ECDSA_SHA_256",
    )
    assert boto3.client("kms", region_name=REGION).describe_key(KeyId=ledger_key)["KeyMetadata"][
        "KeySpec"
    ] == ("ECC_NIST_P256")


def test_a_redelivered_batch_appends_nothing(
    harness: WorkflowHarness, ledger_key: str, table_name: str
) -> None:
    # Given a request and its decision, appended once
    run = requested(harness, approval(approversList=["alice"]), None)
    stream = TableStream(table_name)
    assert vote(run, "alice")[0] == 200
    batch = stream.next_batch()
    assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
    ledger = DynamoDbLedger(boto3.client("dynamodb", region_name=REGION), table_name)
    before = ledger.head("default")
    # When the same records come again (a retried or bisected batch, another instance)
    assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
    # Then nothing was appended: the same head, the same two entries
    assert ledger.head("default") == before and before[0].seq == 2
    verdict, entries = verified(table_name, ledger_key)
    assert verdict.holds and len(entries) == 2


def test_an_append_that_lost_the_head_is_built_again_after_the_winner(
    harness: WorkflowHarness, ledger_key: str, table_name: str
) -> None:
    # Given another appender that takes the head between this one's read and its write
    run = requested(harness, approval(approversList=["alice"]), None)
    stream = TableStream(table_name)
    rival = DynamoDbLedger(boto3.client("dynamodb", region_name=REGION), table_name)
    from waitgate.wiring import composition

    dynamodb = composition.aws_client("dynamodb")
    raced = []

    def race(**_: Any) -> None:
        if not raced:
            raced.append(True)
            entry = next_entry(Head("default"), "another-run#1", {"type": "interrupt.requested"})
            assert rival.append(entry, {**head_after(entry).to_json(), "signature": ""}, 0)

    # When the reader appends the request
    with hooked(dynamodb, "before-call.dynamodb.TransactWriteItems", race):
        assert Handler("dispatch_stream")(stream.next_batch()) == {"batchItemFailures": []}
    # Then the rival's entry is first and the request is the second, linked to it
    entries = list(rival.entries("default"))
    assert [(e["seq"], e["source"]) for e in entries] == [(1, "another-run#1"), (2, f"{run.run_id}#1")]
    assert entries[1]["prev"] == entries[0]["hash"]
    # And the chain verifies (the head that counts is the reader's, signed)
    assert verified(table_name, ledger_key)[0].holds


def test_a_throttled_sign_fails_its_record_and_the_retry_appends_it_once(
    harness: WorkflowHarness, ledger_key: str, table_name: str
) -> None:
    # Given KMS throttling the first Sign
    run = requested(harness, approval(approversList=["alice"]), None)
    assert vote(run, "alice")[0] == 200
    from waitgate.wiring import composition

    signs = Calls(refusals=1)
    records = TableStream(table_name).next_batch()["Records"]
    with hooked(composition.aws_client("kms"), "before-call.kms.Sign", signs):
        # When the mapping delivers the batch, then retries it from the failed record
        first = Handler("dispatch_stream")({"Records": records})
        assert len(first["batchItemFailures"]) == 1
        retried = retried_from(records, first)
        assert Handler("dispatch_stream")({"Records": retried}) == {"batchItemFailures": []}
    # Then each fact is in the ledger once, in order
    verdict, entries = verified(table_name, ledger_key)
    assert verdict.holds and [e["type"] for e in entries] == ["interrupt.requested", "interrupt.resolved"]
    assert signs.made == 3


def test_without_a_ledger_key_nothing_is_appended(harness: WorkflowHarness, table_name: str) -> None:
    run = requested(harness, approval(approversList=["alice"]), None)
    assert vote(run, "alice")[0] == 200
    assert Handler("dispatch_stream")(TableStream(table_name).next_batch()) == {"batchItemFailures": []}
    ledger = DynamoDbLedger(boto3.client("dynamodb", region_name=REGION), table_name)
    assert ledger.head("default") == (Head("default"), None)


def test_the_local_stacks_ledger_key_keeps_its_material_across_starts(aws: None, tmp_path: Path) -> None:
    from local.patches import kept_signing_keys

    # Given the local stack's patch, with the key kept in its state directory
    kept = tmp_path / "ledger-key.pem"
    kept_signing_keys.install(kept)
    kms = boto3.client("kms", region_name=REGION)
    # When LedgerKey is created, then created again (as the next start does)
    keys = [
        kms.create_key(KeySpec="ECC_NIST_P256", KeyUsage="SIGN_VERIFY")["KeyMetadata"]["KeyId"]
        for _ in range(2)
    ]
    # Then both have the kept key's material: a head signed before the restart verifies after it
    public = serialization.load_pem_private_key(kept.read_bytes(), password=None).public_key()
    expected = public.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    assert [public_key_der(kms, key) for key in keys] == [expected, expected]
    signature = kms.sign(KeyId=keys[0], Message=b"head", MessageType="RAW", SigningAlgorithm="ECDSA_SHA_256")
    assert signature_check(public, None)(b"head", signature["Signature"], {})  # type: ignore[arg-type]
    # And a symmetric key is KMS's own as before
    assert kms.create_key()["KeyMetadata"]["KeySpec"] == "SYMMETRIC_DEFAULT"


def test_an_export_since_a_time_starts_there_and_verifies(ledger_key: str, table_name: str) -> None:
    from waitgate.adapters.kms_ledger_signer import KmsLedgerSigner
    from waitgate.run.clock import SystemClock
    from waitgate.service.append_to_ledger import LedgerDependencies, signed_head
    from waitgate.wiring import composition

    # Given three entries recorded on three days, the head signed by KMS
    ledger = DynamoDbLedger(composition.aws_client("dynamodb"), table_name)
    signer = KmsLedgerSigner(composition.aws_client("kms"), ledger_key)
    deps = LedgerDependencies(ledger, signer, composition.store(), SystemClock())
    head = Head("default")
    for day in (1, 2, 3):
        entry = next_entry(
            head, f"run#{day}", {"type": "interrupt.requested", "recordedAt": f"2026-12-0{day}T00:00:00Z"}
        )
        assert ledger.append(entry, signed_head(head_after(entry), deps), head.seq)
        head = head_after(entry)
    # When it is exported since the second day
    written = io.StringIO()
    export(ledger, "default", "2026-12-02T00:00:00Z", written)
    lines = [json.loads(line) for line in written.getvalue().splitlines()]
    # Then the export starts at entry 2, ends with the head, and verifies from there
    assert [line.get("seq") for line in lines[:-1]] == [2, 3] and lines[-1]["ledgerHead"]["seq"] == 3
    public_key = serialization.load_der_public_key(public_key_der(composition.aws_client("kms"), ledger_key))
    check = signature_check(public_key, ledger_key)  # type: ignore[arg-type]
    assert verify_chain(lines[:-1], lines[-1]["ledgerHead"], check).holds
