"""The size budget (docs/protocol-profile.md, "Limits"): what is accepted always fits where it is kept,
so no vote is ever locked out by the size of the votes before it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event
from waitgate.approval import EligibilityRecord, Vote, vote_to_json
from waitgate.payloads.json_rules import encoded_size
from waitgate.run.size_limits import (
    MAX_ASKS,
    MAX_COMMENT_BYTES,
    MAX_ESCALATION_BYTES,
    MAX_PRINCIPAL_BYTES,
    MAX_REQUIRED_APPROVALS,
    MAX_RESUME_VALUE_BYTES,
    most_votes,
    vote_share,
)

DECIDED_AT = "2026-11-30T10:00:00Z"
RESOLVED_AT = "2026-11-30T10:00:00.000Z"  # the eligibility record's stamp: always this many characters


@pytest.fixture
def harness(environment: None) -> WorkflowHarness:
    return WorkflowHarness()


@pytest.fixture(scope="module")
def resolve() -> Handler:
    return Handler("resolve_by_run")


def approval(**data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "release",
        "data": {
            "artifactId": "r1",
            "artifactType": "release",
            "title": "Ship 4.2?",
            "actions": ["accept", "reject", "edit-accept", "ask"],
            **data,
        },
    }


def suspended(harness: WorkflowHarness, interrupt: dict[str, Any], escalation: Any = None) -> SuspendedRun:
    run = harness.suspend(interrupt)
    Handler("request_interrupt")({**run.task_event, "escalation": escalation})
    return run


def largest_policy(principals: list[str]) -> dict[str, Any]:
    """An escalation policy of 8 steps adding the longest principals, just under its 16 KB."""
    steps = [{"afterMs": 1000 * (n + 1), "addApprovers": {"approversList": principals[:6]}} for n in range(8)]
    policy = {"steps": steps, "onDeadline": {"resolveWith": {"action": "reject", "feedback": ""}}}
    room = MAX_ESCALATION_BYTES - encoded_size(policy)
    assert 0 < room <= MAX_COMMENT_BYTES
    policy["onDeadline"]["resolveWith"]["feedback"] = "f" * room  # the policy exactly at its limit
    assert encoded_size(policy) == MAX_ESCALATION_BYTES
    return policy


def vote(resolve: Handler, run: SuspendedRun, sub: str, value: Any) -> tuple[int, dict[str, Any]]:
    answer = resolve(http_event(run.run_id, "Interrupt", {"resumeValue": value}, sub=sub))
    assert answer["statusCode"] < 500, answer["body"]
    return answer["statusCode"], json.loads(answer["body"])


def stored_size(principal: str, value: dict[str, Any]) -> int:
    """What the layer will store for this vote (its own functions, so the test cannot drift)."""
    fields = {name: v for name, v in value.items() if name not in {"action", "decidedAt"}}
    fields.setdefault("decidedBy", principal)
    record = EligibilityRecord(principal, "list", RESOLVED_AT)
    return encoded_size(vote_to_json(Vote(principal, value["action"], value["decidedAt"], record, fields)))


def padded(principal: str, value: dict[str, Any], member: str, size: int) -> dict[str, Any]:
    """`value` with `member` padded so that the stored vote is exactly `size` bytes."""
    value = {**value, member: ""}
    value[member] = "x" * (size - stored_size(principal, value))
    assert stored_size(principal, value) == size
    return value


def long_principal(index: int) -> str:
    return f"approver-{index:02d}-".ljust(MAX_PRINCIPAL_BYTES, "p")


def interrupt_item(dynamodb: Any, table_name: str, run_id: str) -> dict[str, Any]:
    key = {"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    item: dict[str, Any] = dynamodb.get_item(TableName=table_name, Key=key, ConsistentRead=True)["Item"]
    return item


def test_the_largest_quorum_with_the_largest_votes_completes(
    harness: WorkflowHarness, resolve: Handler, dynamodb: Any, table_name: str
) -> None:
    # Given the largest quorum (8 approvals, majority: up to 12 votes) of 12 approvers with the longest
    # principals, a payload near its limit, an escalation policy near its own, every question asked, and
    # a vote share known up front
    principals = [long_principal(i) for i in range(12)]
    interrupt = approval(
        requiredApprovals=MAX_REQUIRED_APPROVALS, rejectionPolicy="majority", approversList=principals
    )
    interrupt["data"]["description"] = "d" * (60 * 1024)
    interrupt["timeoutMs"] = 86_400_000
    run = suspended(harness, interrupt, largest_policy(principals))
    question = {"action": "ask", "decidedAt": DECIDED_AT, "feedback": "é" * (MAX_COMMENT_BYTES // 2)}
    for _ in range(MAX_ASKS):
        assert vote(resolve, run, principals[0], question)[0] == 202
    share = vote_share(MAX_REQUIRED_APPROVALS, MAX_REQUIRED_APPROVALS // 2 + 1)
    assert most_votes(MAX_REQUIRED_APPROVALS, MAX_REQUIRED_APPROVALS // 2 + 1) == 12
    comment = "é" * (MAX_COMMENT_BYTES // 2)  # the longest comment, in two-byte characters
    # When 7 approvers edit-accept and 4 reject, each vote exactly its share, every reject with the
    # longest comment
    for principal in principals[:7]:
        edit = {"action": "edit-accept", "decidedAt": DECIDED_AT, "editedArtifactData": ""}
        status, _ = vote(resolve, run, principal, padded(principal, edit, "editedArtifactData", share))
        assert status == 202
    for principal in principals[7:11]:
        reject = {"action": "reject", "decidedAt": DECIDED_AT, "feedback": comment}
        status, _ = vote(resolve, run, principal, padded(principal, reject, "decidedBy", share))
        assert status == 202
    # And the twelfth, as large, decides
    last = principals[11]
    deciding = padded(
        last, {"action": "reject", "decidedAt": DECIDED_AT, "feedback": comment}, "decidedBy", share
    )
    status, body = vote(resolve, run, last, deciding)
    # Then it is rejected with every vote, the node item holds it all, and the workflow received it
    assert (status, body["resumeValue"]["action"], len(body["resumeValue"]["votes"])) == (200, "reject", 12)
    item = interrupt_item(dynamodb, table_name, run.run_id)
    assert item["status"]["S"] == "resolved"
    item_bytes = sum(
        len(name) + len(str(next(iter(value.values()))).encode()) for name, value in item.items()
    )
    assert item_bytes < 400 * 1024
    ended = harness.wait_for_end(run.execution_arn)
    assert ended["status"] == "SUCCEEDED"
    assert json.loads(ended["output"]) == body["resumeValue"]


def test_a_vote_past_its_share_is_413_and_changes_nothing(
    harness: WorkflowHarness, resolve: Handler, dynamodb: Any, table_name: str
) -> None:
    # Given a 3-of-4 approval (a share of 80 KB / 4 votes each) with two votes recorded
    principals = ["ann", "ben", "cy", "dee"]
    run = suspended(harness, approval(requiredApprovals=3, approversList=principals))
    share = vote_share(3, 1)
    for principal in principals[:2]:
        accept = {"action": "edit-accept", "decidedAt": DECIDED_AT, "editedArtifactData": ""}
        assert vote(resolve, run, principal, padded(principal, accept, "editedArtifactData", share))[0] == 202
    before = interrupt_item(dynamodb, table_name, run.run_id)
    # When the third sends one byte more than the share
    over = padded("cy", {"action": "edit-accept", "decidedAt": DECIDED_AT}, "editedArtifactData", share + 1)
    status, body = vote(resolve, run, "cy", over)
    # Then 413 payload_too_large says the limit, and nothing changed
    assert (status, body["code"]) == (413, "payload_too_large")
    assert f"{share:,}" in body["detail"]
    assert interrupt_item(dynamodb, table_name, run.run_id) == before
    # And a vote within the share still decides
    status, _ = vote(resolve, run, "cy", padded("cy", {**over}, "editedArtifactData", share))
    assert status == 200


def test_a_150_kb_comment_is_refused_at_the_edge(
    harness: WorkflowHarness, resolve: Handler, dynamodb: Any, table_name: str
) -> None:
    # Given a pending approval
    run = suspended(harness, approval())
    before = interrupt_item(dynamodb, table_name, run.run_id)
    # When a 150 KB comment comes (the body is under the 256 KB limit)
    status, body = vote(
        resolve, run, "alice", {"action": "reject", "decidedAt": DECIDED_AT, "feedback": "x" * 150_000}
    )
    # Then 413 names the comment limit; the interrupt is untouched and a normal vote still decides
    assert (status, body["code"], body.get("path")) == (413, "payload_too_large", "resumeValue.feedback")
    assert f"{MAX_COMMENT_BYTES:,}" in body["detail"]
    assert interrupt_item(dynamodb, table_name, run.run_id) == before
    assert vote(resolve, run, "alice", {"action": "accept", "decidedAt": DECIDED_AT})[0] == 200


def test_asks_are_bounded_and_do_not_crowd_out_votes(harness: WorkflowHarness, resolve: Handler) -> None:
    # Given an approval that has been asked its maximum number of questions
    run = suspended(harness, approval())
    question = {"action": "ask", "decidedAt": DECIDED_AT, "feedback": "q" * MAX_COMMENT_BYTES}
    for _ in range(MAX_ASKS):
        assert vote(resolve, run, "alice", question)[0] == 202
    # When one more question comes / Then 400 says why
    status, body = vote(resolve, run, "alice", question)
    assert (status, body["code"]) == (400, "validation_error")
    # And a decision still fits
    assert vote(resolve, run, "alice", {"action": "accept", "decidedAt": DECIDED_AT})[0] == 200


def test_a_resume_value_past_64_kb_is_413(harness: WorkflowHarness, resolve: Handler) -> None:
    # Given a custom interrupt, which takes any JSON
    run = suspended(harness, {"kind": "custom", "key": "c", "data": {"customKind": "x", "payload": {}}})
    # When its resume value is one byte past the limit / Then 413; and at the limit it resolves
    value = "x" * (MAX_RESUME_VALUE_BYTES - 1)  # with its two quotes: one byte over
    assert vote(resolve, run, "alice", value)[1]["code"] == "payload_too_large"
    assert vote(resolve, run, "alice", value[:-1])[0] == 200


@pytest.mark.parametrize(
    "interrupt",
    [
        approval(requiredApprovals=MAX_REQUIRED_APPROVALS + 1),
        {"kind": "custom", "key": "c", "data": {"customKind": "x", "payload": {"blob": "x" * 70_000}}},
    ],
    ids=["quorum too large", "payload too large"],
)
def test_a_request_past_the_limits_fails_its_task(
    harness: WorkflowHarness, interrupt: dict[str, Any]
) -> None:
    # Given a workflow that asks for an interrupt past the host's limits
    run = harness.suspend(interrupt)
    Handler("request_interrupt")(run.task_event)
    # Then its task fails with InterruptPayloadInvalid, saying which limit
    ended = harness.wait_for_end(run.execution_arn)
    assert (ended["status"], ended.get("error")) == ("FAILED", "InterruptPayloadInvalid")
