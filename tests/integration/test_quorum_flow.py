"""Quorums and approver eligibility on moto: real executions suspend, the run surface votes, the
directory table decides who may, the notifications topic hears about asks."""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import boto3
import pytest

from tests.integration.conftest import REGION, create_table_from_template
from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event
from waitgate.adapters.dynamodb_directory import DynamoDbDirectory

ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
REJECT = {"action": "reject", "decidedAt": "2026-11-30T10:01:00Z", "feedback": "Not yet."}
ASK = {"action": "ask", "decidedAt": "2026-11-30T10:02:00Z", "feedback": "Which region first?"}
OVERRIDE = "oncall-lead"


def approval(**data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "release",
        "data": {
            "artifactId": "r1",
            "artifactType": "release",
            "title": "Ship 4.2?",
            "actions": ["accept", "reject", "refine", "ask"],
            **data,
        },
    }


@pytest.fixture
def directory(dynamodb: Any) -> DynamoDbDirectory:
    name = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-test")
    return DynamoDbDirectory(dynamodb, name)


@pytest.fixture
def asks_queue(aws: None) -> tuple[str, str]:
    """The notifications topic with the agent side's queue subscribed, as an agent would: filtered on
    the `kind` attribute to asks only (approvers' own notices go to their own subscriptions)."""
    sns, sqs = boto3.client("sns", region_name=REGION), boto3.client("sqs", region_name=REGION)
    topic_arn = sns.create_topic(Name="waitgate-notifications")["TopicArn"]
    queue_url = sqs.create_queue(QueueName="agent-side")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]
    sns.subscribe(
        TopicArn=topic_arn,
        Protocol="sqs",
        Endpoint=queue_arn["QueueArn"],
        Attributes={"FilterPolicy": json.dumps({"kind": ["interrupt.ask"]})},
    )
    return topic_arn, queue_url


@pytest.fixture
def harness(
    environment: None,
    monkeypatch: pytest.MonkeyPatch,
    directory: DynamoDbDirectory,
    asks_queue: tuple[str, str],
) -> WorkflowHarness:
    """What Globals.Function.Environment adds for approvals: directory, topic, override principals."""
    monkeypatch.setenv("DIRECTORY_TABLE_NAME", directory._table)
    monkeypatch.setenv("TOPIC_ARN", asks_queue[0])
    monkeypatch.setenv("OVERRIDE_PRINCIPALS", OVERRIDE)
    monkeypatch.setenv("REF_KINDS", "principal,group,role")
    from waitgate.wiring import settings

    settings.settings.cache_clear()
    return WorkflowHarness()


def suspended(harness: WorkflowHarness, interrupt: dict[str, Any]) -> SuspendedRun:
    run = harness.suspend(interrupt)
    Handler("request_interrupt")(run.task_event)
    return run


def vote(run: SuspendedRun, sub: str, value: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = Handler("resolve_by_run")(http_event(run.run_id, "Interrupt", {"resumeValue": value}, sub=sub))
    return answer["statusCode"], json.loads(answer["body"])


def stored_interrupt(dynamodb: Any, table_name: str, run_id: str) -> dict[str, Any]:
    key = {"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    item = dynamodb.get_item(TableName=table_name, Key=key, ConsistentRead=True)["Item"]
    return {
        "version": int(item["version"]["N"]),
        "status": item["status"]["S"],
        "votes": json.loads(item["votes"]["S"]),
        "asks": json.loads(item["asks"]["S"]),
    }


def debug_events(dynamodb: Any, table_name: str, run_id: str) -> list[dict[str, Any]]:
    answer = dynamodb.query(
        TableName=table_name,
        KeyConditionExpression="pk = :pk AND begins_with(sk, :evt)",
        ExpressionAttributeValues={":pk": {"S": f"RUN#default#{run_id}"}, ":evt": {"S": "EVT#"}},
    )
    return [
        {"type": i["type"]["S"], "mode": i["mode"]["S"], "payload": json.loads(i["payload"]["S"])}
        for i in answer["Items"]
    ]


def matched(votes: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(v["principal"], v["action"], v["eligibility"]["matchedBy"]) for v in votes]


def test_two_of_three_collects_votes_then_decides(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a 2-of-3 approval whose approvers are listed
    run = suspended(harness, approval(requiredApprovals=2, approversList=["ann", "ben", "cy"]))
    before = stored_interrupt(dynamodb, table_name, run.run_id)
    # When ann accepts
    status, body = vote(run, "ann", ACCEPT)
    # Then 202 pending, her vote is on the interrupt (version + 1) and logged as a debug event
    assert (status, body["status"]) == (202, "pending")
    after = stored_interrupt(dynamodb, table_name, run.run_id)
    assert after["version"] == before["version"] + 1
    assert matched(after["votes"]) == [("ann", "accept", "list")]
    voted = [e for e in debug_events(dynamodb, table_name, run.run_id) if e["type"] == "interrupt.voted"]
    assert [(e["mode"], e["payload"]["vote"]["principal"]) for e in voted] == [("debug", "ann")]
    # When ann votes again, and an outsider votes
    again, again_body = vote(run, "ann", ACCEPT)
    outsider, outsider_body = vote(run, "mallory", ACCEPT)
    # Then 409 already_voted, and 403 forbidden saying the caller is not an eligible approver
    assert (again, again_body["code"]) == (409, "already_voted")
    assert (outsider, outsider_body["code"]) == (403, "forbidden")
    assert "not an eligible approver" in outsider_body["detail"]
    # When ben accepts
    status, body = vote(run, "ben", {**ACCEPT, "feedback": "LGTM"})
    # Then 200, and the workflow gets the deciding vote plus both votes with their eligibility records
    assert status == 200
    output = json.loads(harness.wait_for_end(run.execution_arn)["output"])
    assert output == body["resumeValue"]
    assert (output["action"], output["feedback"], output["decidedBy"]) == ("accept", "LGTM", "ben")
    assert matched(output["votes"]) == [("ann", "accept", "list"), ("ben", "accept", "list")]
    assert all(v["eligibility"]["resolvedAt"].endswith("Z") for v in output["votes"])


def test_single_veto_rejects_at_the_first_reject(harness: WorkflowHarness) -> None:
    # Given a 2-of-3 approval under the default single-veto policy
    run = suspended(harness, approval(requiredApprovals=2, approversList=["ann", "ben", "cy"]))
    # When ann accepts and ben rejects
    first, _ = vote(run, "ann", ACCEPT)
    second, _ = vote(run, "ben", REJECT)
    # Then ben's reject decides at once
    assert (first, second) == (202, 200)
    output = json.loads(harness.wait_for_end(run.execution_arn)["output"])
    assert output["action"] == "reject"
    assert matched(output["votes"]) == [("ann", "accept", "list"), ("ben", "reject", "list")]


def test_majority_needs_more_than_half_of_n_rejects(harness: WorkflowHarness) -> None:
    # Given a 3-of-4 approval under majority: floor(3/2)+1 = 2 rejects reject it
    run = suspended(
        harness,
        approval(requiredApprovals=3, rejectionPolicy="majority", approversList=["ann", "ben", "cy", "di"]),
    )
    # When ann rejects, ben accepts, cy rejects
    answers = [vote(run, "ann", REJECT)[0], vote(run, "ben", ACCEPT)[0], vote(run, "cy", REJECT)[0]]
    # Then the second reject decides
    assert answers == [202, 202, 200]
    output = json.loads(harness.wait_for_end(run.execution_arn)["output"])
    assert output["action"] == "reject"
    assert [v["principal"] for v in output["votes"]] == ["ann", "ben", "cy"]


def test_override_principal_bypasses_the_quorum(harness: WorkflowHarness) -> None:
    # Given a 3-of-3 approval with overrideBypassesQuorum, and the host's override principal
    run = suspended(
        harness, approval(requiredApprovals=3, overrideBypassesQuorum=True, approversList=["ann", "ben"])
    )
    # When the on-call lead accepts alone
    status, body = vote(run, OVERRIDE, ACCEPT)
    # Then that decides, recorded as an override
    assert status == 200
    assert matched(body["resumeValue"]["votes"]) == [(OVERRIDE, "accept", "override")]


def test_override_without_bypass_counts_once(harness: WorkflowHarness) -> None:
    # Given a 2-of-3 approval without the bypass
    run = suspended(harness, approval(requiredApprovals=2, approversList=["ann", "ben"]))
    # When the on-call lead accepts, then ann
    first, _ = vote(run, OVERRIDE, ACCEPT)
    second, body = vote(run, "ann", ACCEPT)
    # Then the override's vote was one of the two
    assert (first, second) == (202, 200)
    assert matched(body["resumeValue"]["votes"]) == [
        (OVERRIDE, "accept", "override"),
        ("ann", "accept", "list"),
    ]


def test_group_membership_is_resolved_at_vote_time_and_kept_as_history(
    harness: WorkflowHarness, directory: DynamoDbDirectory
) -> None:
    # Given a 2-of-N approval bound to a group and a role, with nobody in them yet
    run = suspended(
        harness,
        approval(requiredApprovals=2, approverGroupRefs=["release-managers"], approverRoleRefs=["sre"]),
    )
    # When bob votes before he is a member
    refused, problem = vote(run, "bob", ACCEPT)
    # Then he is refused
    assert (refused, problem["code"]) == (403, "forbidden")
    # When he is granted the group after the request, and votes
    directory.add_member("default", "group", "release-managers", "bob")
    first, _ = vote(run, "bob", ACCEPT)
    # Then his vote counts, matched by the group
    assert first == 202
    # When his membership is removed and carol, holding the role, decides
    directory.remove_member("default", "group", "release-managers", "bob")
    directory.add_member("default", "role", "sre", "carol")
    second, body = vote(run, "carol", ACCEPT)
    # Then bob's stored record is history: not re-resolved, still matched by the group
    assert second == 200
    assert matched(body["resumeValue"]["votes"]) == [
        ("bob", "accept", "group:release-managers"),
        ("carol", "accept", "role:sre"),
    ]


def test_membership_of_another_tenant_does_not_count(
    harness: WorkflowHarness, directory: DynamoDbDirectory
) -> None:
    # Given a group approval in tenant "default", and bob a member of that group in tenant "acme" only
    run = suspended(harness, approval(approverGroupRefs=["release-managers"]))
    directory.add_member("acme", "group", "release-managers", "bob")
    # When bob votes
    status, body = vote(run, "bob", ACCEPT)
    # Then he is not eligible here
    assert (status, body["code"]) == (403, "forbidden")


def test_unadvertised_ref_kind_is_ignored(harness: WorkflowHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a host that advertises only principal refs, and an approval bound only to a group
    monkeypatch.setenv("REF_KINDS", "principal")
    from waitgate.wiring import settings

    settings.settings.cache_clear()
    run = suspended(harness, approval(approverGroupRefs=["release-managers"]))
    # When anyone allowed on the surface accepts
    status, body = vote(run, "zed", ACCEPT)
    # Then the group field binds nobody: the gate is open
    assert status == 200
    assert matched(body["resumeValue"]["votes"]) == [("zed", "accept", "open")]


@pytest.mark.parametrize(
    "fields",
    [{"approversList": []}, {"approverGroupRefs": []}, {"approverRoleRefs": []}],
    ids=["empty list", "empty group refs", "empty role refs"],
)
def test_an_empty_eligibility_field_fails_closed(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, fields: dict[str, Any]
) -> None:
    # Given an approval whose eligibility field is present but empty
    run = suspended(harness, approval(**fields))
    before = stored_interrupt(dynamodb, table_name, run.run_id)
    events_before = debug_events(dynamodb, table_name, run.run_id)
    # When a caller allowed on the surface accepts
    status, body = vote(run, "zed", ACCEPT)
    # Then 403 forbidden, and nothing changed: no vote, no event, still pending
    assert (status, body["code"]) == (403, "forbidden")
    assert stored_interrupt(dynamodb, table_name, run.run_id) == before
    assert debug_events(dynamodb, table_name, run.run_id) == events_before
    # And the host's override principal still decides
    status, body = vote(run, OVERRIDE, ACCEPT)
    assert status == 200
    assert matched(body["resumeValue"]["votes"]) == [(OVERRIDE, "accept", "override")]


def test_ask_is_recorded_and_notified_without_deciding(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, asks_queue: tuple[str, str]
) -> None:
    # Given a 1-of-N approval with listed approvers
    run = suspended(harness, approval(approversList=["ann", "ben"]))
    # When an outsider asks
    refused, _ = vote(run, "mallory", ASK)
    # Then eligibility applies to asks too
    assert refused == 403
    # When ann asks
    status, body = vote(run, "ann", ASK)
    # Then 202 pending, the question is on the interrupt, the run still waits
    assert (status, body["status"]) == (202, "pending")
    stored = stored_interrupt(dynamodb, table_name, run.run_id)
    assert stored["status"] == "pending" and stored["votes"] == []
    assert [(a["principal"], a["feedback"], a["eligibility"]["matchedBy"]) for a in stored["asks"]] == [
        ("ann", "Which region first?", "list")
    ]
    # And one SNS message reached the agent side, with kind/tenantId/runId attributes
    messages = boto3.client("sqs", region_name=REGION).receive_message(
        QueueUrl=asks_queue[1], MaxNumberOfMessages=10
    )["Messages"]
    assert len(messages) == 1
    envelope = json.loads(messages[0]["Body"])
    attributes = {name: value["Value"] for name, value in envelope["MessageAttributes"].items()}
    assert attributes == {"kind": "interrupt.ask", "tenantId": "default", "runId": run.run_id}
    notice = json.loads(envelope["Message"])
    assert (notice["nodeId"], notice["ask"]["feedback"]) == ("Interrupt", "Which region first?")
    # And the ask did not use up ann's vote: her accept decides
    decided, _ = vote(run, "ann", ACCEPT)
    assert decided == 200


def test_three_concurrent_votes_on_two_of_three_resolve_once(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a 2-of-3 approval, three eligible approvers and three Lambda instances of resolve_by_run
    run = suspended(harness, approval(requiredApprovals=2, approversList=["ann", "ben", "cy"]))
    instances = {sub: Handler("resolve_by_run") for sub in ("ann", "ben", "cy")}
    from waitgate.wiring import composition

    sends = Counter[str]()
    composition.aws_client("stepfunctions").meta.events.register(
        "before-call.sfn.SendTaskSuccess", lambda **_: sends.update(["SendTaskSuccess"])
    )
    barrier = threading.Barrier(3)
    answers: dict[str, dict[str, Any]] = {}

    def cast(sub: str) -> None:
        event = http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}, sub=sub)
        barrier.wait()
        answers[sub] = instances[sub](event)

    # When all three accept at once
    threads = [threading.Thread(target=cast, args=(sub,)) for sub in instances]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then one 200 decides; the vote recorded before it got 202; the late one 409 already resolved
    statuses = {sub: answer["statusCode"] for sub, answer in answers.items()}
    assert Counter(statuses.values()) == {200: 1, 202: 1, 409: 1}
    late = next(sub for sub, status in statuses.items() if status == 409)
    assert json.loads(answers[late]["body"])["code"] == "interrupt_already_resolved"
    winner = next(sub for sub, status in statuses.items() if status == 200)
    decision = json.loads(answers[winner]["body"])["resumeValue"]
    recorded = next(sub for sub, status in statuses.items() if status == 202)
    # And no vote was lost or counted twice: the decision holds exactly the 202 and the 200
    assert [v["principal"] for v in decision["votes"]] == [recorded, winner]
    assert stored_interrupt(dynamodb, table_name, run.run_id)["votes"] == decision["votes"]
    # And Step Functions was answered exactly once, with that decision
    assert sends["SendTaskSuccess"] == 1
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == decision
