"""Action-bound approvals and separation of duties on the local stack, through the SDK (issue 33,
"How we will know"): the decision authorizes exactly the approved action, is consumed once, and the
requester cannot approve their own request."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import test_quorum_e2e as quorum
from tests.e2e.conftest import LocalStackHandle
from waitgate.sdk import ApprovalDecision, DecisionAlreadyConsumed, SelfApprovalRefused, WaitgateClient

pytestmark = pytest.mark.e2e

SCOPE = "approvals:respond"
AT = "2026-12-03T10:00:00Z"
TRANSFER = {"name": "transfer", "args": {"amount": 100, "to": "acct-2"}, "target": "acct-1"}


def transfer_approval() -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "transfer",
        "data": {
            "artifactId": "t-1",
            "artifactType": "transfer",
            "title": "Transfer 100 to acct-2?",
            "actions": ["accept", "reject", "edit-accept"],
            "action": TRANSFER,
            "changes": [{"op": "replace", "path": "/balance", "value": 900}],
            "requestedBy": "carol",
            "approversList": ["alice", "carol"],
        },
    }


class Run(quorum.Run):
    """The generic interrupt workflow suspended on the transfer's approval, decided through the SDK."""

    def __init__(self, stack: LocalStackHandle) -> None:
        super().__init__(stack, transfer_approval())

    def client(self, sub: str) -> WaitgateClient:
        token = self.stack.jwt(sub, SCOPE)
        return WaitgateClient(self.stack.api_url, token_provider=lambda: token)

    def decide(self, sub: str, value: dict[str, Any]) -> None:
        self.client(sub).resolve_by_run(self.run_id, "Interrupt", value)

    def decision(self) -> ApprovalDecision:
        return ApprovalDecision.from_resume(self.output())


def test_an_accept_authorizes_exactly_the_transfer_and_is_consumed_once(
    local_stack: LocalStackHandle,
) -> None:
    # Given an agent's request to approve transfer {amount: 100}, requested by carol
    run = Run(local_stack)
    # When alice accepts and the workflow receives the decision
    run.decide("alice", {"action": "accept", "decidedAt": AT})
    decision = run.decision()
    # Then it authorizes that transfer and not one of 1000
    assert decision.authorizes(TRANSFER)
    assert not decision.authorizes(TRANSFER | {"args": {"amount": 1000, "to": "acct-2"}})
    assert decision.action_fingerprint is not None and decision.action_fingerprint.startswith("sha256:")
    # And the executing side consumes it once: a second consume (a retried step) is refused
    executor = run.client("payments-bot")
    receipt = executor.consume(decision)
    assert (receipt["interruptId"], receipt["actionFingerprint"]) == (
        decision.decision_of.interrupt_id if decision.decision_of else None,
        decision.action_fingerprint,
    )
    with pytest.raises(DecisionAlreadyConsumed) as again:
        executor.consume(decision)
    assert again.value.status == 409


def test_an_edit_accept_authorizes_only_the_edited_amount(local_stack: LocalStackHandle) -> None:
    # Given the same request; when alice edits the amount to 90 and accepts
    run = Run(local_stack)
    edited = TRANSFER | {"args": {"amount": 90, "to": "acct-2"}}
    run.decide("alice", {"action": "edit-accept", "editedAction": edited, "decidedAt": AT})
    decision = run.decision()
    # Then only the transfer of 90 is authorized, under its new fingerprint
    assert decision.authorizes(edited)
    assert not decision.authorizes(TRANSFER)
    assert decision.bound_action == edited


def test_the_requesters_own_vote_is_refused(local_stack: LocalStackHandle) -> None:
    # Given carol's request, on which carol is a listed approver
    run = Run(local_stack)
    # When carol votes on it
    with pytest.raises(SelfApprovalRefused) as refused:
        run.decide("carol", {"action": "accept", "decidedAt": AT})
    # Then 403 self_approval_refused, and the approval still waits for someone else
    assert (refused.value.status, refused.value.code) == (403, "self_approval_refused")
    run.decide("alice", {"action": "reject", "decidedAt": AT})
    assert run.decision().rejected
