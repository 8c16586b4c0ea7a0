"""The read-only handlers hold read policies only (template.yaml): what each really calls while it
answers, recorded at botocore on moto, is within the actions its template policies grant. moto checks
no IAM, so without this a handler that starts writing (say, recording a first view) would pass every
test here and fail with AccessDenied on AWS."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fnmatch import fnmatch
from typing import Any

import pytest
from botocore.client import BaseClient

from local.template.sam_template import load_template
from tests.integration.kind_steps import KindSteps
from tests.support.handlers import sample_event
from tests.support.links import BROWSER_ACCEPT, mint_event, token_event
from tests.support.run_reads import get_run_event, list_events_event

APPROVAL: dict[str, Any] = {
    "kind": "approval",
    "key": "ship",
    "data": {
        "artifactId": "a1",
        "artifactType": "doc",
        "title": "Ship it?",
        "actions": ["accept", "reject"],
        "approversList": ["alice"],
    },
}
LOGICAL_IDS = {
    "get_run": "GetRunFunction",
    "list_run_events": "ListRunEventsFunction",
    "inspect_by_token": "InspectByTokenFunction",
    "list_interrupts": "ListInterruptsFunction",
    "inbox_page": "InboxPageFunction",
    "list_webhook_events": "ListWebhookEventsFunction",
    "capabilities": "CapabilitiesFunction",
    "openapi_docs": "OpenApiFunction",
}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every AWS call made while the test runs, as the IAM action it needs (`dynamodb:GetItem`)."""
    calls: list[str] = []
    original = BaseClient._make_api_call

    def recording(client: Any, operation: str, parameters: Any) -> Any:
        calls.append(f"{client.meta.service_model.signing_name}:{operation}")
        return original(client, operation, parameters)

    monkeypatch.setattr(BaseClient, "_make_api_call", recording)
    yield calls


def granted(logical_id: str) -> list[str]:
    """The actions the function's template policies allow (managed policies named by Ref)."""
    resources = load_template()["Resources"]
    actions: list[str] = []
    for policy in resources[logical_id]["Properties"].get("Policies", []):
        assert "Ref" in policy, f"{logical_id}: a read-only function holds managed read policies only"
        for statement in resources[policy["Ref"]]["Properties"]["PolicyDocument"]["Statement"]:
            listed = statement["Action"]
            actions += listed if isinstance(listed, list) else [listed]
    return actions


def reads(steps: KindSteps, run_id: str, token: str) -> dict[str, list[dict[str, Any]]]:
    """An event for each read-only handler about the suspended run (and its link)."""
    item = sample_event("inbox_item")
    item["pathParameters"] = {"runId": run_id, "nodeId": "Interrupt"}
    item["rawPath"] = item["requestContext"]["http"]["path"] = f"/inbox/interrupts/{run_id}/Interrupt"
    item["requestContext"]["authorizer"]["jwt"]["claims"].update(sub="alice", scope="approvals:respond")
    item["requestContext"]["authorizer"]["jwt"]["claims"].pop("tenant", None)
    return {
        "get_run": [get_run_event(run_id)],
        "list_run_events": [list_events_event(run_id, mode="debug")],
        "inspect_by_token": [token_event(token), token_event(token, accept=BROWSER_ACCEPT)],
        "list_interrupts": [sample_event("list_interrupts")],
        "inbox_page": [item, sample_event("inbox_page")],
        "list_webhook_events": [sample_event("list_webhook_events")],
        "capabilities": [sample_event("capabilities")],
        "openapi_docs": [sample_event("openapi_docs")],
    }


def test_each_read_only_handler_calls_only_what_its_policies_grant(steps: KindSteps, sent: list[str]) -> None:
    # Given a suspended approval and a signed link to it
    run, _ = steps.suspend(APPROVAL)
    minted = steps.handler("mint_token")(
        mint_event(run.run_id, "Interrupt", {"intent": "resolve", "sub": "alice"})
    )
    assert minted["statusCode"] == 201, minted["body"]
    token = json.loads(minted["body"])["token"]
    # When each read-only handler answers its requests
    called: dict[str, set[str]] = {}
    for function, events in reads(steps, run.run_id, token).items():
        sent.clear()
        for event in events:
            answer = steps.handler(function)(event)
            assert answer["statusCode"] < 500, (function, answer["body"])
        called[function] = set(sent)
    # Then every AWS call each made is an action its template policies grant (and so none writes)
    for function, calls in called.items():
        allowed = granted(LOGICAL_IDS[function])
        refused = sorted(call for call in calls if not any(fnmatch(call, action) for action in allowed))
        assert not refused, f"{function} calls {refused}, which its policies do not grant"
    # And the calls were seen: the run's reads and the pending interrupt's (the link's key was read,
    # and kept, by the instance that minted it: one process holds one keyring)
    assert "dynamodb:GetItem" in called["get_run"]
    assert "dynamodb:BatchGetItem" in called["inspect_by_token"]
    assert not called["capabilities"] and not called["openapi_docs"]
