"""`waitgate ledger export|verify|public-key`: the decision ledger (docs/ledger.md).

`export --tenant T [--since TIME]` writes the tenant's entries as JSON lines, then the signed head
(`{"ledgerHead": ...}`): the head is read first, so the entries are exactly those it counts. `verify
FILE` checks every entry's hash, the links, the order and the completeness up to the signed head, and
the head's signature; it names each entry that was changed, removed or reordered and exits 1.

The key verify checks with: `--public-key FILE` (PEM), else `--key-id` (the stack's LedgerKeyArn
output: KMS GetPublicKey with the usual credential chain), else the local stack's kept key (its state
directory's ledger-key.pem, whose public half it reads; the stack need not be running).
Without `--table`, export reads the running local stack; with it, a deployed InterruptsTable.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from local.cli.command_actions import action_parsers
from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir

if TYPE_CHECKING:  # imported by the action that uses it: `--help` needs none, `verify` no boto3
    from cryptography.hazmat.primitives.asymmetric import ec

    from waitgate.adapters.dynamodb_ledger import DynamoDbLedger
    from waitgate.ledger.verification import SignatureCheck, Verdict

INTERRUPTS_LOGICAL_ID = "InterruptsTable"
HEAD_MEMBER = "ledgerHead"
DESCRIPTION = """\
The decision ledger: every request, vote, escalation and decision of a tenant, in a hash chain whose
head is signed (docs/ledger.md). Export it as JSON lines; verify an export: each entry that was
changed, removed or reordered is named, and the exit status is 1."""
ACTIONS = {
    "export": (
        "write a tenant's entries and signed head as JSON lines",
        "waitgate ledger export --tenant default",
    ),
    "verify": ("check an export's chain and signature", "waitgate ledger verify ledger.jsonl"),
    "public-key": ("print the key that verifies the heads (PEM)", "waitgate ledger public-key"),
}


class LedgerFileError(Exception):
    """An export that is not one (a line that is not JSON): said in one line."""


def add_ledger_parser(commands: Any) -> None:
    for action, parser in action_parsers(
        commands,
        "ledger",
        "export and verify the tamper-evident decision ledger",
        DESCRIPTION,
        ACTIONS,
        "export",
    ):
        if action == "export":
            parser.add_argument("--tenant", required=True, help="the tenant whose ledger to export")
            parser.add_argument(
                "--since", help="from the first entry recorded at or after this RFC 3339 time"
            )
            parser.add_argument("--output", type=Path, help="the file to write (default: standard output)")
            parser.add_argument(
                "--table", help="a deployed InterruptsTable (real AWS); default: the local stack"
            )
        if action == "verify":
            parser.add_argument("file", type=Path, help="an export (JSON lines)")
            parser.add_argument("--public-key", type=Path, help="the verifying key, PEM")
        if action in ("verify", "public-key"):
            parser.add_argument("--key-id", help="the stack's LedgerKeyId output: its public key from KMS")
        parser.add_argument("--region", help="with --table or --key-id: the region (default: AWS_REGION)")


def run_ledger(arguments: argparse.Namespace) -> int:
    from cryptography.hazmat.primitives import serialization

    from waitgate.adapters.dynamodb_ledger import DynamoDbLedger
    from waitgate.ledger.verification import verify_chain

    action = arguments.ledger_action
    if action == "export":
        ledger = DynamoDbLedger(*_table(arguments))
        if arguments.output is None:
            export(ledger, arguments.tenant, arguments.since, sys.stdout)
        else:
            with arguments.output.open("w", encoding="utf-8") as output:
                export(ledger, arguments.tenant, arguments.since, output)
        return 0
    public_key = _public_key(arguments)
    if action == "public-key":
        print(
            public_key.public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            ).decode()
        )
        return 0
    entries, head = read_export(arguments.file)
    verdict = verify_chain(entries, head, signature_check(public_key, arguments.key_id))
    print(described(arguments.file, verdict))
    return 0 if verdict.holds else 1


def export(ledger: DynamoDbLedger, tenant: str, since: str | None, output: TextIO) -> int:
    """The entries the signed head counts (from `since` on), then the head; how many entries."""
    head, signed = ledger.head(tenant)
    written = 0
    for entry in _from(ledger.entries(tenant, up_to=head.seq), since):
        output.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
        written += 1
    if signed is not None:
        output.write(json.dumps({HEAD_MEMBER: signed}, sort_keys=True) + "\n")
    return written


def _from(entries: Iterator[dict[str, Any]], since: str | None) -> Iterator[dict[str, Any]]:
    """Every entry from the first recorded at or after `since` (the chain stays whole from there)."""
    started = since is None
    for entry in entries:
        started = started or str(entry.get("recordedAt", "")) >= str(since)
        if started:
            yield entry


def read_export(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    entries, head = [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as error:
            raise LedgerFileError(f"{path}, line {number}: not JSON ({error})") from None
        if not isinstance(value, dict):
            raise LedgerFileError(f"{path}, line {number}: not a ledger entry")
        if HEAD_MEMBER in value:
            head = value[HEAD_MEMBER]
        else:
            entries.append(value)
    return entries, head


def described(path: Path, verdict: Verdict) -> str:
    if verdict.holds:
        span = f"entries {verdict.first_seq}..{verdict.head_seq}" if verdict.entries else "no entries"
        return f"{path}: the ledger holds: {span}, each linked to the one before, up to the signed head"
    count = len(verdict.problems)
    problems = f"{count} problem{'s' if count > 1 else ''}"
    lines = [f"{path}: the ledger does not hold ({problems}; the first comes first):"]
    return "\n".join([*lines, *(f"  {problem.message}" for problem in verdict.problems)])


def signature_check(public_key: ec.EllipticCurvePublicKey, key_id: str | None) -> SignatureCheck:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    def check(message: bytes, signature: bytes, head: Any) -> bool:
        if key_id is not None and isinstance(head, dict) and head.get("keyId") != key_id:
            return False  # signed by another key than the one named
        try:
            public_key.verify(signature, message, ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return False
        return True

    return check


def _public_key(arguments: argparse.Namespace) -> ec.EllipticCurvePublicKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    if getattr(arguments, "public_key", None) is not None:
        key = serialization.load_pem_public_key(arguments.public_key.read_bytes())
    elif arguments.key_id:
        import boto3

        from waitgate.adapters.kms_ledger_signer import public_key_der

        kms = boto3.client("kms", region_name=arguments.region)
        key = serialization.load_der_public_key(public_key_der(kms, arguments.key_id))
    else:
        path = StateDir.from_environment().ledger_key
        if not path.exists():
            raise LedgerFileError(f"no local ledger key at {path}: say --public-key or --key-id")
        key = serialization.load_pem_private_key(path.read_bytes(), password=None).public_key()
    if not isinstance(key, ec.EllipticCurvePublicKey):
        raise LedgerFileError("the verifying key is not an EC public key")
    return key


def _table(arguments: argparse.Namespace) -> tuple[Any, str]:
    import boto3

    if arguments.table:
        return boto3.client("dynamodb", region_name=arguments.region), arguments.table
    described_stack = running_stack_description(StateDir.from_environment())
    client = boto3.client(
        "dynamodb",
        endpoint_url=described_stack["awsEndpointUrl"],
        region_name=described_stack.get("region", "us-east-1"),
        aws_access_key_id="local",  # moto takes any credentials; these are not secrets
        aws_secret_access_key="local",  # noqa: S106
    )
    return client, described_stack["tableNames"][INTERRUPTS_LOGICAL_ID]
