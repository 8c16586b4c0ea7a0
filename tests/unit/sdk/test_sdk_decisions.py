"""Decisions: the resume values waitgate delivers (docs/approvals.md, docs/kinds.md) read back typed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from waitgate.approval import EligibilityRecord
from waitgate.approval import Vote as QuorumVote
from waitgate.approval.quorum import Decided, QuorumPolicy, cast_vote, decision_resume_value
from waitgate.sdk import ApprovalDecision, ClarificationAnswers, ResumeValueError

TWO_OF_TWO = {
    "action": "accept",
    "decidedAt": "2026-11-30T10:05:00Z",
    "decidedBy": "ben",
    "feedback": "LGTM",
    "votes": [
        {
            "principal": "ann",
            "action": "accept",
            "decidedAt": "2026-11-30T10:00:00Z",
            "decidedBy": "ann",
            "eligibility": {
                "principal": "ann",
                "matchedBy": "list",
                "resolvedAt": "2026-11-30T10:00:00.412Z",
            },
        },
        {
            "principal": "ben",
            "action": "accept",
            "decidedAt": "2026-11-30T10:05:00Z",
            "decidedBy": "ben",
            "feedback": "LGTM",
            "eligibility": {
                "principal": "ben",
                "matchedBy": "group:release-managers",
                "resolvedAt": "2026-11-30T10:05:00.118Z",
            },
        },
    ],
}


def test_a_quorum_decision_reads_with_every_vote() -> None:
    # Given the 2-of-2 resume value of docs/approvals.md
    # When read
    decision = ApprovalDecision.from_resume(TWO_OF_TWO)
    # Then the deciding vote's members and every vote are typed
    assert decision.accepted and not decision.rejected and not decision.needs_refinement
    assert decision.decided_at == datetime(2026, 11, 30, 10, 5, tzinfo=UTC)
    assert (decision.decided_by, decision.feedback) == ("ben", "LGTM")
    assert [(vote.principal, vote.action, vote.matched_by) for vote in decision.votes] == [
        ("ann", "accept", "list"),
        ("ben", "accept", "group:release-managers"),
    ]
    assert decision.votes[0].decided_at == datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    assert decision.votes[1].eligibility_resolved_at == datetime(2026, 11, 30, 10, 5, 0, 118000, tzinfo=UTC)


def test_what_the_quorum_rules_deliver_reads_back() -> None:
    # Given a resume value produced by waitgate's own quorum rules (a single reject)
    eligibility = EligibilityRecord(
        principal="cy", matched_by="role:sre", resolved_at="2026-11-30T11:00:00.001Z"
    )
    vote = QuorumVote(
        principal="cy",
        action="reject",
        decided_at="2026-11-30T11:00:00Z",
        eligibility=eligibility,
        fields={"feedback": "not now"},
    )
    decided = cast_vote(QuorumPolicy(), (), vote)
    assert isinstance(decided, Decided)
    delivered = decision_resume_value(decided)
    # When read, Then it is a rejection with its one vote
    decision = ApprovalDecision.from_resume(delivered)
    assert decision.rejected and decision.feedback == "not now"
    assert [(v.principal, v.matched_by) for v in decision.votes] == [("cy", "role:sre")]


def test_refine_and_edit_accept() -> None:
    # Given a refine decision
    refine = ApprovalDecision.from_resume(
        {
            "action": "refine",
            "decidedAt": "2026-11-30T10:00:00+02:00",
            "refineFeedback": {"scope": "section", "sectionPath": "intro", "text": "shorter"},
        }
    )
    # Then it needs refinement, with the feedback typed
    assert refine.needs_refinement and not refine.accepted
    assert refine.refine_feedback is not None
    assert (refine.refine_feedback.scope, refine.refine_feedback.section_path) == ("section", "intro")
    # Given an edit-accept, Then it is accepted with the edited artifact
    edited = ApprovalDecision.from_resume(
        {"action": "edit-accept", "decidedAt": "2026-11-30T10:00:00Z", "editedArtifactData": {"v": 2}}
    )
    assert edited.accepted and edited.edited_artifact_data == {"v": 2}
    assert edited.votes == ()


def test_agentflow_resume_shape() -> None:
    # Given our decisions, Then agentflow-ported code gets {decision, feedback?}
    assert ApprovalDecision.from_resume(TWO_OF_TWO).to_agentflow_resume() == {
        "decision": "accept",
        "feedback": "LGTM",
    }
    rejected = ApprovalDecision.from_resume({"action": "reject", "decidedAt": "2026-11-30T10:00:00Z"})
    assert rejected.to_agentflow_resume() == {"decision": "reject"}


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"action": "maybe", "decidedAt": "2026-11-30T10:00:00Z"}, "resumeValue.action"),
        ({"action": "accept"}, "resumeValue.decidedAt"),
        ({"action": "accept", "decidedAt": "yesterday"}, "resumeValue.decidedAt"),
        ("accept", "resumeValue"),
    ],
)
def test_what_is_not_an_approval_decision_is_refused(value: object, path: str) -> None:
    # Given something that is not an approval resume value, Then ResumeValueError names the member
    with pytest.raises(ResumeValueError) as refused:
        ApprovalDecision.from_resume(value)
    assert str(refused.value).startswith(path)


def test_clarification_answers() -> None:
    # Given a clarification's resume value
    answers = ClarificationAnswers.from_resume({"answers": {"region": "eu-west-1", "replicas": 3}})
    # Then each answer is read by question id
    assert (answers["region"], answers.get("replicas"), answers.get("notes")) == ("eu-west-1", 3, None)
    assert answers.to_agentflow_resume("region") == "eu-west-1"
    # And a value without answers is refused
    with pytest.raises(ResumeValueError, match=r"resumeValue\.answers"):
        ClarificationAnswers.from_resume({"region": "eu"})
