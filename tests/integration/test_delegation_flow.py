"""A delegation is an event in the log, on strict moto (issue #33 point 3): granting and ending one
writes the directory record and a `delegation.*` event of the tenant's directory log in one
transaction, and the table stream's one reader appends both to the tenant's ledger, which verifies."""
# ruff: noqa: F811 (the ledger flow's fixtures, imported by name, are the tests' parameters)

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import boto3

from tests.integration.conftest import create_table_from_template
from tests.integration.durability_faults import TableStream
from tests.integration.test_escalation_flow import harness, inbox, scheduler  # noqa: F401 (fixtures)
from tests.integration.test_ledger_flow import ledger_key, verified  # noqa: F401 (fixtures)
from tests.support.handlers import Handler
from waitgate.adapters.dynamodb_directory import DynamoDbDirectory
from waitgate.approval.delegation import Delegation

REGION = "us-east-1"


def test_granting_and_ending_a_delegation_are_ledgered_events(
    ledger_key: str, table_name: str, dynamodb: Any
) -> None:
    # Given the directory table beside the interrupts table, and the stream read from now
    directory_table = create_table_from_template(dynamodb, "DirectoryTable", "directory-delegations")
    directory = DynamoDbDirectory(boto3.client("dynamodb", region_name=REGION), directory_table, table_name)
    stream = TableStream(table_name)
    until = datetime(2026, 12, 24, tzinfo=UTC)
    # When alice delegates to bob until Christmas, and it is ended (twice: the second ends nothing)
    directory.delegate("acme", Delegation("alice", "bob", until=until))
    assert directory.delegations_to("acme", "bob") == (Delegation("alice", "bob", until=until),)
    assert directory.undelegate("acme", "alice", "bob") is True
    assert directory.undelegate("acme", "alice", "bob") is False
    assert directory.delegations_to("acme", "bob") == ()
    # And the stream's reader gets the batch
    assert Handler("dispatch_stream")(stream.next_batch()) == {"batchItemFailures": []}
    # Then the tenant's ledger holds both events, in order, and verifies
    verdict, entries = verified(table_name, ledger_key, tenant="acme")
    assert verdict.holds, verdict.problems
    assert [(entry["type"], entry["runId"], entry["via"]) for entry in entries] == [
        ("delegation.granted", "directory", "directory"),
        ("delegation.ended", "directory", "directory"),
    ]
    assert entries[0]["detail"] == {
        "delegator": "alice",
        "delegate": "bob",
        "until": "2026-12-24T00:00:00.000Z",
        "kinds": ["approval"],
        "via": "directory",
    }
