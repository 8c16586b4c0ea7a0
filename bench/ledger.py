"""The decision ledger (docs/ledger.md): what one ledgered fact costs (DynamoDB calls and request
units, bytes kept, KMS Sign calls), measured on strict moto through the real use case and adapters;
and how fast `ledger verify` checks 100,000 entries (the pure rules, with a real ECDSA P-256 head)."""

from __future__ import annotations

import time
from typing import Any

import boto3

from bench.dynamodb_capacity import Capacity, item_size
from bench.report import Row
from waitgate.run.records import RunRef

GROUP = "ledger"
REGION = "us-east-1"
VERIFIED_ENTRIES = 100_000
TABLE = "waitgate-bench-ledger"
INTERRUPT_ID = "01JD0000000000000000000000"
RUN = RunRef("bench", "release-4-2")
PAYLOAD = {
    "kind": "approval",
    "key": "ship",
    "data": {
        "artifactId": "release-4.2",
        "artifactType": "release",
        "title": "Ship 4.2 to production?",
        "actions": ["accept", "reject"],
        "approversList": ["alice", "bob"],
        "requiredApprovals": 2,
        "action": {"name": "deploy", "args": {"version": "4.2.0", "region": "eu-west-1"}},
    },
}


def _vote(principal: str, comment: str) -> dict[str, Any]:
    return {
        "principal": principal,
        "action": "accept",
        "decidedAt": "2026-12-01T10:00:00Z",
        "feedback": comment,
        "eligibility": {"principal": principal, "matchedBy": "list", "resolvedAt": "2026-12-01T10:00:00Z"},
    }


def _decision_events() -> list[Any]:
    """A 2-of-2 approval's ledgered events: the request, alice's vote, bob's deciding vote."""
    from waitgate.run.records import RunEvent

    about = {"nodeId": "Approve", "interruptId": INTERRUPT_ID}
    alice, bob = _vote("alice", "checked the change list"), _vote("bob", "ship it")
    resume = {
        "action": "accept",
        "decidedAt": "2026-12-01T10:00:00Z",
        "feedback": "ship it",
        "votes": [alice, bob],
    }
    return [
        RunEvent(1, "interrupt.requested", "2026-12-01T09:00:00Z", PAYLOAD, "Approve"),
        RunEvent(3, "interrupt.voted", "2026-12-01T09:30:00Z", {**about, "vote": alice}, "Approve"),
        RunEvent(
            4,
            "interrupt.resolved",
            "2026-12-01T10:00:00Z",
            {**about, "kind": "approval", "resumeValue": resume},
            "Approve",
        ),
    ]


class _Writes:
    """The items each TransactWriteItems put, sized as DynamoDB sizes them."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.signs = 0

    def transact(self, params: dict[str, Any], **_: Any) -> None:
        self.sizes += [item_size(entry["Put"]["Item"]) for entry in params.get("TransactItems", [])]

    def sign(self, **_: Any) -> None:
        self.signs += 1


def _ledger_on_moto(dynamodb: Any, kms: Any) -> Any:
    """The table (as the template has it) with the approval's node item, the key, the use case's parts."""
    from local.template.sam_template import table_properties
    from waitgate.adapters.dynamodb_items import interrupt_item
    from waitgate.adapters.dynamodb_ledger import DynamoDbLedger
    from waitgate.adapters.dynamodb_store import DynamoDbStore
    from waitgate.adapters.kms_ledger_signer import KmsLedgerSigner
    from waitgate.run.clock import SystemClock
    from waitgate.run.records import InterruptRecord
    from waitgate.service.append_to_ledger import LedgerDependencies

    properties = table_properties("InterruptsTable")
    shape = ("AttributeDefinitions", "KeySchema", "BillingMode", "GlobalSecondaryIndexes")
    dynamodb.create_table(TableName=TABLE, **{k: properties[k] for k in shape})
    key = kms.create_key(KeySpec="ECC_NIST_P256", KeyUsage="SIGN_VERIFY")["KeyMetadata"]["KeyId"]
    record = InterruptRecord(
        RUN, "Approve", INTERRUPT_ID, "approval", "ship", PAYLOAD, "t", "2026-12-01T09:00:00Z"
    )
    dynamodb.put_item(TableName=TABLE, Item=interrupt_item(record))
    store, signer = DynamoDbStore(dynamodb, TABLE), KmsLedgerSigner(kms, key)
    return LedgerDependencies(DynamoDbLedger(dynamodb, TABLE), signer, store, SystemClock())


def cost_per_fact() -> dict[str, float]:
    from moto import mock_aws

    from waitgate.service.append_to_ledger import append_to_ledger

    with mock_aws():
        dynamodb, kms = boto3.client("dynamodb", region_name=REGION), boto3.client("kms", region_name=REGION)
        deps = _ledger_on_moto(dynamodb, kms)
        capacity, writes = Capacity(boto3.client("dynamodb", region_name=REGION)), _Writes()
        capacity.attach(dynamodb)
        dynamodb.meta.events.register("provide-client-params.dynamodb.TransactWriteItems", writes.transact)
        kms.meta.events.register("before-call.kms.Sign", writes.sign)
        events = _decision_events()
        for event in events:
            append_to_ledger(RUN, event, deps)
        calls, write, read, signs, sizes = (
            len(capacity.calls),
            capacity.write,
            capacity.read,
            writes.signs,
            writes.sizes[:],
        )
        again = sum(append_to_ledger(RUN, event, deps) for event in events)  # redelivered: nothing
    facts = len(events)
    return {
        "facts": facts,
        "calls": calls / facts,
        "write_units": write / facts,
        "read_units": read / facts,
        "bytes": sum(sizes) / facts,
        "entry_bytes": max(sizes[1::3]),
        "signs": signs / facts,
        "appended_again": again,
        "redelivered_calls": (len(capacity.calls) - calls) / facts,
    }


def verify_speed() -> tuple[float, bool]:
    import base64

    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    from local.cli.ledger import signature_check
    from waitgate.ledger.chain import Head, head_after, head_to_sign, next_entry, signed_message
    from waitgate.ledger.entries import facts_of
    from waitgate.ledger.verification import verify_chain

    events = _decision_events()
    facts = [facts_of(e.type, e.time, "release-4-2", e.node_id, e.payload) for e in events]
    head, entries = Head("bench"), []
    for n in range(VERIFIED_ENTRIES):
        entry = next_entry(head, f"release-4-2#{n}", facts[n % len(facts)])
        entries.append(entry)
        head = head_after(entry)
    key = ec.generate_private_key(ec.SECP256R1())
    unsigned = head_to_sign(head, "bench-key", "2026-12-01T10:00:00Z")
    signed = {
        **unsigned,
        "signature": base64.b64encode(key.sign(signed_message(unsigned), ec.ECDSA(hashes.SHA256()))).decode(),
    }
    started = time.perf_counter()
    verdict = verify_chain(entries, signed, signature_check(key.public_key(), None))
    return time.perf_counter() - started, verdict.holds


def per_decision_rows(cost: dict[str, float]) -> list[Row]:
    """What the ledger adds to one decided approval (its facts: request, vote, decision), and the
    write units' price per 1,000 of them (bench/prices.json; KMS Sign is not priced there)."""
    from bench.cost_model import PRICES

    facts = cost["facts"]
    per_thousand = cost["write_units"] * facts * 1000 * PRICES["dynamodb_write_request_unit"]
    note = f"a 2-of-2 approval: {facts:.0f} facts"
    return [
        Row(GROUP, "write units per decided approval", cost["write_units"] * facts, "WCU", note=note),
        Row(GROUP, "read units per decided approval", cost["read_units"] * facts, "RCU", note=note),
        Row(GROUP, "bytes written per decided approval", cost["bytes"] * facts, "B", note=note),
        Row(
            GROUP,
            "KMS Sign calls per decided approval",
            cost["signs"] * facts,
            "calls",
            f"= {facts:.0f}",
            cost["signs"] * facts == facts,
            "one signed head per fact",
        ),
        Row(GROUP, "ledger writes per 1,000 decided approvals", per_thousand, "USD", note="on-demand WRU"),
    ]


def run() -> list[Row]:
    cost = cost_per_fact()
    seconds, held = verify_speed()
    note = f"a 2-of-2 approval: {cost['facts']:.0f} facts (request, vote, decision)"
    return [
        Row(
            GROUP,
            "DynamoDB calls per ledgered fact",
            cost["calls"],
            "calls",
            "= 3",
            cost["calls"] == 3,
            "head GetItem, node BatchGetItem, one TransactWriteItems",
        ),
        Row(
            GROUP,
            "write units per ledgered fact",
            cost["write_units"],
            "WCU",
            note=note + "; 3 items, transactional",
        ),
        Row(GROUP, "read units per ledgered fact", cost["read_units"], "RCU", note="consistent"),
        Row(
            GROUP, "bytes written per ledgered fact", cost["bytes"], "B", note="entry + head + source marker"
        ),
        *per_decision_rows(cost),
        Row(
            GROUP,
            "largest entry item",
            cost["entry_bytes"],
            "B",
            "< 400 KB",
            cost["entry_bytes"] < 400 * 1024,
        ),
        Row(GROUP, "KMS Sign calls per ledgered fact", cost["signs"], "calls", "= 1", cost["signs"] == 1),
        Row(
            GROUP,
            "entries appended by a redelivered batch",
            cost["appended_again"],
            "entries",
            "= 0",
            cost["appended_again"] == 0,
            f"{cost['redelivered_calls']:.0f} calls per redelivered fact: its Sign, a cancelled transaction",
        ),
        Row(
            GROUP,
            f"ledger verify, {VERIFIED_ENTRIES:,} entries",
            seconds,
            "s",
            "< 60 s",
            held and seconds < 60,
        ),
        Row(GROUP, "ledger verify speed", VERIFIED_ENTRIES / seconds, "entries/s"),
    ]


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
