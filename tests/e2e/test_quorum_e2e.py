"""Quorums and approver eligibility on the local stack, over HTTP, with the directory managed by
`waitgate directory` (issue 5, "How we will know")."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e

SCOPE = "approvals:respond"
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
REJECT = {"action": "reject", "decidedAt": "2026-11-30T10:01:00Z"}
ASK = {"action": "ask", "decidedAt": "2026-11-30T10:02:00Z", "feedback": "Which region first?"}


def approval(**data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "release",
        "data": {
            "artifactId": "r1",
            "artifactType": "release",
            "title": "Ship 4.2?",
            "actions": ["accept", "reject", "ask"],
            **data,
        },
    }


class Run:
    """One execution of the stack's generic interrupt workflow, suspended at its Interrupt state."""

    def __init__(self, stack: LocalStackHandle, interrupt: dict[str, Any]) -> None:
        self.stack = stack
        self.run_id = f"run-{uuid.uuid4().hex}"
        self.execution_arn = stack.sfn.start_execution(
            stateMachineArn=stack.state_machines["interrupt"],
            name=self.run_id,
            input=json.dumps({"interrupt": interrupt}),
        )["executionArn"]
        wait_for(self._waiting)

    def vote(self, sub: str, value: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        answer = self.stack.http.post(
            f"/runs/{self.run_id}/interrupts/Interrupt",
            {"resumeValue": value},
            token=self.stack.jwt(sub, SCOPE),
        )
        body: dict[str, Any] = answer.json()
        return answer.status, body

    def output(self) -> dict[str, Any]:
        execution = wait_for(self._finished)
        assert execution["status"] == "SUCCEEDED", execution
        output: dict[str, Any] = json.loads(execution["output"])
        return output

    def _waiting(self) -> bool | None:
        item = self.stack.dynamodb.get_item(
            TableName=self.stack.table_names["InterruptsTable"],
            Key={"pk": {"S": f"RUN#default#{self.run_id}"}, "sk": {"S": "RUN"}},
        ).get("Item")
        return True if item and item["status"]["S"] == "waiting-approval" else None

    def _finished(self) -> dict[str, Any] | None:
        execution: dict[str, Any] = self.stack.sfn.describe_execution(executionArn=self.execution_arn)
        return None if execution["status"] == "RUNNING" else execution


def directory(stack: LocalStackHandle, *arguments: str) -> str:
    done = run_local(["directory", *arguments], stack.environment)
    assert done.returncode == 0, done.stderr
    return done.stdout


def matched(votes: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(v["principal"], v["action"], v["eligibility"]["matchedBy"]) for v in votes]


def test_two_of_three_approval(local_stack: LocalStackHandle) -> None:
    # Given a 2-of-3 approval with listed approvers
    run = Run(local_stack, approval(requiredApprovals=2, approversList=["ann", "ben", "cy"]))
    # When ann accepts, accepts again, an outsider accepts, then ben accepts
    first = run.vote("ann", ACCEPT)
    repeated = run.vote("ann", ACCEPT)
    outsider = run.vote("mallory", ACCEPT)
    second = run.vote("ben", ACCEPT)
    # Then 202 pending, 409 already_voted, 403 forbidden, 200 resolved
    assert (first[0], first[1]["status"]) == (202, "pending")
    assert (repeated[0], repeated[1]["code"]) == (409, "already_voted")
    assert (outsider[0], outsider[1]["code"]) == (403, "forbidden")
    assert "not an eligible approver" in outsider[1]["detail"]
    assert (second[0], second[1]["status"]) == (200, "resolved")
    # And the execution's output carries both votes
    output = run.output()
    assert output["action"] == "accept"
    assert matched(output["votes"]) == [("ann", "accept", "list"), ("ben", "accept", "list")]


def test_single_veto(local_stack: LocalStackHandle) -> None:
    # Given a 2-of-3 approval under the default single-veto policy
    run = Run(local_stack, approval(requiredApprovals=2, approversList=["ann", "ben", "cy"]))
    # When ann accepts and ben rejects
    answers = [run.vote("ann", ACCEPT)[0], run.vote("ben", REJECT)[0]]
    # Then the one reject decides
    assert answers == [202, 200]
    assert run.output()["action"] == "reject"


def test_majority(local_stack: LocalStackHandle) -> None:
    # Given a 3-of-4 approval under majority (2 rejects reject)
    run = Run(
        local_stack,
        approval(requiredApprovals=3, rejectionPolicy="majority", approversList=["ann", "ben", "cy", "di"]),
    )
    # When ann rejects, ben accepts, cy rejects
    answers = [run.vote("ann", REJECT)[0], run.vote("ben", ACCEPT)[0], run.vote("cy", REJECT)[0]]
    # Then the second reject decides, with all three votes
    assert answers == [202, 202, 200]
    output = run.output()
    assert output["action"] == "reject"
    assert [v["principal"] for v in output["votes"]] == ["ann", "ben", "cy"]


def test_override_bypass(local_stack: LocalStackHandle) -> None:
    # Given the stack's override principal (local.json) and a 3-of-3 approval with the bypass
    (override,) = local_stack.description["overridePrincipals"]
    run = Run(local_stack, approval(requiredApprovals=3, overrideBypassesQuorum=True, approversList=["ann"]))
    # When the override principal accepts alone
    status, _ = run.vote(override, ACCEPT)
    # Then it decides, recorded as an override
    assert status == 200
    assert matched(run.output()["votes"]) == [(override, "accept", "override")]


def test_group_membership_granted_after_the_request_counts(local_stack: LocalStackHandle) -> None:
    # Given an approval bound to a group nobody is in yet
    group = f"release-{uuid.uuid4().hex[:8]}"
    run = Run(local_stack, approval(approverGroupRefs=[group]))
    # When bob is added to the group after the request, then votes
    directory(local_stack, "add-member", "--group", group, "--principal", "bob")
    assert directory(local_stack, "list", "--group", group).split() == ["bob"]
    status, _ = run.vote("bob", ACCEPT)
    # Then his vote counts, matched by the group
    assert status == 200
    assert matched(run.output()["votes"]) == [("bob", "accept", f"group:{group}")]


def test_membership_removed_before_the_vote_refuses_it(local_stack: LocalStackHandle) -> None:
    # Given a role approval, and carol holding the role when the interrupt is requested
    role = f"sre-{uuid.uuid4().hex[:8]}"
    directory(local_stack, "add-member", "--role", role, "--principal", "carol")
    run = Run(local_stack, approval(approverRoleRefs=[role]))
    # When her role is removed before she votes
    directory(local_stack, "remove-member", "--role", role, "--principal", "carol")
    assert directory(local_stack, "list", "--role", role).split() == []
    status, problem = run.vote("carol", ACCEPT)
    # Then she is refused: membership is resolved at decision time
    assert (status, problem["code"]) == (403, "forbidden")


def test_ask_is_recorded_and_published_for_the_agent_side(local_stack: LocalStackHandle) -> None:
    # Given a queue subscribed to the notifications topic for asks, and a pending approval
    sqs, sns = local_stack.client("sqs"), local_stack.client("sns")
    queue_url = sqs.create_queue(QueueName=f"asks-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]
    run = Run(local_stack, approval(approversList=["ann"]))
    sns.subscribe(
        TopicArn=local_stack.description["topicArns"]["NotificationsTopic"],
        Protocol="sqs",
        Endpoint=queue_arn["QueueArn"],
        Attributes={"FilterPolicy": json.dumps({"kind": ["interrupt.ask"], "runId": [run.run_id]})},
    )
    # When ann asks
    status, body = run.vote("ann", ASK)
    # Then 202 pending, and one message with kind/tenantId/runId attributes reaches the agent side
    assert (status, body["status"]) == (202, "pending")
    messages = wait_for(lambda: sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=1).get("Messages"))
    envelope = json.loads(messages[0]["Body"])
    attributes = {name: value["Value"] for name, value in envelope["MessageAttributes"].items()}
    assert attributes == {"kind": "interrupt.ask", "tenantId": "default", "runId": run.run_id}
    assert json.loads(envelope["Message"])["ask"]["feedback"] == "Which region first?"
    # And the run still waits until ann decides
    assert run.vote("ann", ACCEPT)[0] == 200


def test_capabilities_are_public_and_advertise_group_and_role(local_stack: LocalStackHandle) -> None:
    # When anyone asks, without a bearer token
    answer = local_stack.http.get("/capabilities")
    # Then 200 with the interrupt facet: hs256 tokens, all three ref kinds
    assert answer.status == 200, answer.body
    facet = answer.json()["facets"]["interrupt"]
    assert facet == {"tokenAlgs": ["hs256"], "refKinds": ["principal", "group", "role"]}
