"""The run id `directory` is waitgate's own, on strict moto (issue #33): the tenant's directory log
(its delegations and settings, as events) lives under `RUN#<tenant>#directory`, so no run may be
made or addressed with that id: a workflow's Task asking under it fails by name, and every path that
names it answers 404 not_found, as for an id that cannot name a run (docs/protocol-profile.md)."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest

from tests.integration.conftest import create_table_from_template
from tests.integration.kind_steps import KindSteps
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.run_reads import get_run_event, list_events_event
from waitgate.adapters.dynamodb_directory import DynamoDbDirectory
from waitgate.approval.delegation import Delegation

APPROVAL = {
    "kind": "approval",
    "key": "ship",
    "data": {"artifactId": "a1", "artifactType": "doc", "title": "Ship?", "actions": ["accept", "reject"]},
}


@pytest.fixture
def steps(environment: None) -> KindSteps:
    return KindSteps(WorkflowHarness())


def test_a_run_named_directory_is_neither_made_nor_read(
    steps: KindSteps, table_name: str, dynamodb: Any
) -> None:
    # Given the default tenant's directory log holds an event (a delegation granted)
    directory_table = create_table_from_template(dynamodb, "DirectoryTable", "directory-reserved")
    directory = DynamoDbDirectory(
        boto3.client("dynamodb", region_name="us-east-1"), directory_table, table_name
    )
    directory.delegate("default", Delegation("alice", "bob"))
    # When a workflow's execution named `directory` asks for an approval
    run, outcome = steps.suspend(APPROVAL, run_id="directory")
    # Then its Task fails by name
    assert outcome["status"] == "rejected"
    assert steps.failure_of(run) == "InterruptPayloadInvalid"
    # And reading the log as a run, or answering it, is 404 not_found
    for function, event in (
        ("get_run", get_run_event("directory")),
        ("list_run_events", list_events_event("directory")),
    ):
        answer = steps.handler(function)(event)
        assert (answer["statusCode"], json.loads(answer["body"])["code"]) == (404, "not_found")
    assert steps.resolve("directory", "Interrupt", {"action": "accept"})[0] == 404
    # And the inbox's runId filter says which rule its value breaks
    listed = steps.handler("list_interrupts")(inbox_event(runId="directory"))
    problem = json.loads(listed["body"])
    assert (listed["statusCode"], problem["code"], problem["path"]) == (400, "validation_error", "runId")
    assert "reserved" in problem["detail"]


def inbox_event(**query: str) -> dict[str, Any]:
    from tests.support.handlers import sample_event

    event = sample_event("list_interrupts")
    event["queryStringParameters"] = query
    return event
