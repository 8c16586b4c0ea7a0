"""The inbox's index in template.yaml: InboxByDeadline projects the summary a page needs, never a
payload; FormerPendingIndex=keep keeps the former PendingByDeadline for the one deploy that upgrades a
stack from it (a table update adds or deletes one GSI), and the inbox reads that one then, with the
permission to, and InboxByDeadline otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from local.template.intrinsics import Intrinsics, parameter_values, pseudo_parameters
from local.template.sam_template import load_template, translate

PARAMETERS = {"JwtIssuer": "https://issuer.example.com", "JwtAudience": "waitgate"}
TABLE_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/waitgate-InterruptsTable-X"


def deployed(former: str) -> tuple[dict[str, Any], Intrinsics]:
    parameters = {**PARAMETERS, "FormerPendingIndex": former}
    translated = translate(load_template(), parameters)
    values = parameter_values(translated["Parameters"], parameters)
    pseudo = pseudo_parameters("waitgate", "us-east-1", "123456789012")
    intrinsics = Intrinsics(parameters={**values, **pseudo}, conditions=translated.get("Conditions", {}))
    intrinsics.attributes = {("InterruptsTable", "Arn"): TABLE_ARN}
    return translated["Resources"], intrinsics


def indexes(resources: dict[str, Any], intrinsics: Intrinsics) -> dict[str, dict[str, Any]]:
    table = intrinsics.resolve(resources["InterruptsTable"]["Properties"]["GlobalSecondaryIndexes"])
    return {index["IndexName"]: index for index in table}


def test_the_inbox_index_projects_the_summary_never_a_payload() -> None:
    resources, intrinsics = deployed("drop")
    found = indexes(resources, intrinsics)
    assert set(found) == {"InboxByDeadline", "OutstandingByDue"}
    inbox = found["InboxByDeadline"]
    assert [k["AttributeName"] for k in inbox["KeySchema"]] == ["pendingTenant", "pendingOrder"]
    projected = set(inbox["Projection"]["NonKeyAttributes"])
    assert "inboxSummary" in projected
    assert not projected & {"payload", "votes", "asks", "escalation", "escalated", "taskToken", "resumeValue"}


@pytest.mark.parametrize(("former", "read"), [("drop", "InboxByDeadline"), ("keep", "PendingByDeadline")])
def test_the_inbox_reads_the_index_the_deploy_has_and_may_read_it(former: str, read: str) -> None:
    resources, intrinsics = deployed(former)
    found = indexes(resources, intrinsics)
    assert ("PendingByDeadline" in found) == (former == "keep")
    if former == "keep":  # the former one as it was deployed: its projection cannot change in place
        assert "payload" in found["PendingByDeadline"]["Projection"]["NonKeyAttributes"]
    variables = resources["ListInterruptsFunction"]["Properties"]["Environment"]["Variables"]
    assert intrinsics.resolve(variables["PENDING_INDEX"]) == read
    (query,) = (
        statement
        for statement in resources["InboxReadPolicy"]["Properties"]["PolicyDocument"]["Statement"]
        if statement["Action"] == ["dynamodb:Query"]
    )
    allowed = set(intrinsics.resolve(query["Resource"]))
    assert f"{TABLE_ARN}/index/{read}" in allowed
    assert {arn.rsplit("/", 1)[-1] for arn in allowed if "/index/" in arn} == (
        {"InboxByDeadline", "PendingByDeadline"} if former == "keep" else {"InboxByDeadline"}
    )
