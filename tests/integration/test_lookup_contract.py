"""One contract, two implementations of each lookup port: the run index and the directory, in memory
(the fakes the unit tests use) and on DynamoDB (the adapters, on moto)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from tests.fakes.memory import MemoryDirectory, MemoryRunIndex, MemoryStore
from tests.integration.conftest import create_table_from_template
from tests.integration.test_store_contract import RUN, first_change, interrupt
from waitgate.adapters.dynamodb_directory import DynamoDbDirectory
from waitgate.adapters.dynamodb_run_index import DynamoDbRunIndex
from waitgate.adapters.dynamodb_store import DynamoDbStore
from waitgate.approval.delegation import Delegation
from waitgate.run.records import ExecutionLinkRef, GuardedItem, RunChange, RunRef, RunSnapshot


@pytest.fixture(params=["memory", "dynamodb"])
def tables(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """A store and the run index over the same table."""
    if request.param == "memory":
        memory = MemoryStore()
        return memory, MemoryRunIndex(memory)
    table_name = request.getfixturevalue("table_name")
    client = boto3.client("dynamodb", region_name="us-east-1")
    return DynamoDbStore(client, table_name), DynamoDbRunIndex(client, table_name)


@pytest.fixture(params=["memory", "dynamodb"])
def directory(request: pytest.FixtureRequest) -> Any:
    if request.param == "memory":
        return MemoryDirectory()
    dynamodb = request.getfixturevalue("dynamodb")
    return DynamoDbDirectory(dynamodb, create_table_from_template(dynamodb, "DirectoryTable", "directory"))


def test_the_run_index_finds_linked_runs_and_a_runs_interrupts(tables: tuple[Any, Any]) -> None:
    store, index = tables
    # Given a run linked to its execution (with its ARN) and an unlinked interrupt-free one
    link = GuardedItem(
        ExecutionLinkRef("exec-1", RUN),
        "execution-link",
        expect=None,
        put={"tenantId": "default", "runId": "run-1", "linkedAt": "t", "executionArn": "arn:x"},
    )
    store.commit(replace(first_change(), guarded=(link,)))
    acme = RunRef("acme", "run-1")
    other = GuardedItem(
        ExecutionLinkRef("exec-1", acme), "execution-link", put={"tenantId": "acme", "runId": "run-1"}
    )
    store.commit(RunChange(snapshot=RunSnapshot.new(acme), guarded=(other,)))
    # Then the execution names both runs (every tenant), with the ARN where one was linked
    assert [(found.run, found.execution_arn) for found in index.runs_of_execution("exec-1")] == [
        (acme, None),
        (RUN, "arn:x"),
    ]
    assert index.runs_of_execution("exec-2") == ()
    # And a run's interrupts are its node items
    assert index.interrupts_of_run(RUN) == (interrupt(),)
    assert index.interrupts_of_run(acme) == ()


def test_the_directory_answers_memberships_and_members_per_tenant(directory: Any) -> None:
    # Given alice and bob in acme's group ops, carol holding acme's role lead, and dave in globex's ops
    directory.add_member("acme", "group", "ops", "bob")
    directory.add_member("acme", "group", "ops", "alice")
    directory.add_member("acme", "role", "lead", "carol")
    directory.add_member("globex", "group", "ops", "dave")
    # Then members are per tenant and kind, in principal order
    assert directory.members("acme", "group", "ops") == ("alice", "bob")
    assert directory.members("acme", "role", "ops") == ()
    assert directory.members("globex", "group", "ops") == ("dave",)
    # And a principal's memberships name only the asked refs it belongs to
    found = directory.memberships("acme", "carol", ["ops"], ["lead", "cfo"])
    assert (found.groups, found.roles) == (frozenset(), frozenset({"lead"}))
    assert directory.memberships("acme", "dave", ["ops"], []).groups == frozenset()
    # And a removed member is gone from both reads (removing twice is harmless)
    directory.remove_member("acme", "group", "ops", "bob")
    directory.remove_member("acme", "group", "ops", "bob")
    assert directory.members("acme", "group", "ops") == ("alice",)
    assert directory.memberships("acme", "bob", ["ops"], []).groups == frozenset()


def test_the_directory_keeps_delegations_per_tenant_until_ended(directory: Any) -> None:
    # Given alice and carol delegating to bob in acme (alice until a time), and dave to bob in globex
    until = datetime(2026, 12, 24, tzinfo=UTC)
    directory.delegate("acme", Delegation("carol", "bob"))
    directory.delegate("acme", Delegation("alice", "bob", until=until))
    directory.delegate("globex", Delegation("dave", "bob"))
    # Then bob's delegations are his tenant's, in delegator order, with their until and kinds
    assert directory.delegations_to("acme", "bob") == (
        Delegation("alice", "bob", until=until),
        Delegation("carol", "bob"),
    )
    assert directory.delegations_to("acme", "alice") == ()
    # And delegating again replaces; undelegating ends it, once
    directory.delegate("acme", Delegation("alice", "bob"))
    assert directory.delegations_to("acme", "bob")[0].until is None
    assert directory.undelegate("acme", "alice", "bob") is True
    assert directory.undelegate("acme", "alice", "bob") is False
    assert directory.delegations_to("acme", "bob") == (Delegation("carol", "bob"),)
    assert directory.delegations_to("globex", "bob") == (Delegation("dave", "bob"),)
