"""A tenant's own setting, on strict moto (issue #33 point 2): `allowSelfApproval` kept in the
directory table lets an approval's requester vote on it for the whole tenant (override principals
included), its change is an event of the tenant's directory log that the ledger records, and a
delegate for the requester's seat is still refused."""
# ruff: noqa: F811 (the flows' fixtures, imported by name, are the tests' parameters)

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import boto3
import pytest

from tests.integration.conftest import REGION
from tests.integration.durability_faults import TableStream
from tests.integration.test_ledger_flow import ledger_key, verified  # noqa: F401 (fixtures)
from tests.integration.test_quorum_flow import (  # noqa: F401 (fixtures)
    ACCEPT,
    OVERRIDE,
    approval,
    asks_queue,
    directory,
    harness,
    suspended,
    vote,
)
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler
from waitgate.adapters.dynamodb_directory import DynamoDbDirectory
from waitgate.approval.delegation import Delegation
from waitgate.approval.separation_of_duties import ALLOW_SELF_APPROVAL, TenantSettings


def test_the_tenant_setting_lets_the_requester_vote_override_included_and_is_ledgered(
    harness: WorkflowHarness, directory: DynamoDbDirectory, table_name: str, ledger_key: str
) -> None:
    logged = DynamoDbDirectory(boto3.client("dynamodb", region_name=REGION), directory._table, table_name)
    stream = TableStream(table_name)
    # Given the override principal's own request, and carol's, with dave deciding for carol
    by_override = suspended(harness, approval(approversList=["alice"], requestedBy=OVERRIDE))
    by_carol = suspended(harness, approval(approversList=["carol"], requestedBy="carol"))
    logged.delegate("default", Delegation("carol", "dave", until=datetime.now(UTC) + timedelta(days=1)))
    # When the override principal votes while the tenant keeps its default, Then it is refused
    status, problem = vote(by_override, OVERRIDE, ACCEPT)
    assert (status, problem["code"]) == (403, "self_approval_refused")
    # When the tenant allows self-approval (the setting is read back as set)
    logged.set_tenant_setting("default", ALLOW_SELF_APPROVAL, True)
    assert logged.tenant_settings("default") == TenantSettings(allow_self_approval=True)
    assert logged.tenant_settings("acme") == TenantSettings()
    # Then the override principal decides their own request, and carol's delegate still may not
    assert vote(by_override, OVERRIDE, ACCEPT)[0] == 200
    status, problem = vote(by_carol, "dave", ACCEPT)
    assert (status, problem["code"]) == (403, "self_approval_refused")
    assert vote(by_carol, "carol", ACCEPT)[0] == 200
    # And turning it off is read at the next vote
    logged.set_tenant_setting("default", ALLOW_SELF_APPROVAL, False)
    again = suspended(harness, approval(approversList=["carol"], requestedBy="carol"))
    assert vote(again, "carol", ACCEPT)[1]["code"] == "self_approval_refused"
    # And both changes are in the tenant's ledger, which verifies
    assert Handler("dispatch_stream")(stream.next_batch()) == {"batchItemFailures": []}
    verdict, entries = verified(table_name, ledger_key, tenant="default")
    assert verdict.holds, verdict.problems
    settings = [entry["detail"] for entry in entries if entry["type"] == "setting.changed"]
    assert [(s["name"], s["value"], s["via"]) for s in settings] == [
        (ALLOW_SELF_APPROVAL, True, "directory"),
        (ALLOW_SELF_APPROVAL, False, "directory"),
    ]


def test_an_unknown_setting_is_refused(directory: DynamoDbDirectory) -> None:
    with pytest.raises(ValueError, match="no tenant setting"):
        directory.set_tenant_setting("default", "allowEverything", True)
