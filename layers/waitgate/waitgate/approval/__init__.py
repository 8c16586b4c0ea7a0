"""Approval rules, pure: who may decide (`eligibility`) and when the votes decide (`quorum`)."""

from waitgate.approval.eligibility import (
    AddedApprovers,
    ApproverFields,
    EligibilityRecord,
    Memberships,
    RefsToResolve,
    check_eligibility,
    notification_recipients,
    refs_needing_resolution,
)
from waitgate.approval.quorum import (
    Asked,
    Decided,
    Outcome,
    Pending,
    QuorumPolicy,
    Vote,
    cast_vote,
    decision_resume_value,
    vote_from_json,
    vote_to_json,
)

__all__ = [
    "AddedApprovers",
    "ApproverFields",
    "Asked",
    "Decided",
    "EligibilityRecord",
    "Memberships",
    "Outcome",
    "Pending",
    "QuorumPolicy",
    "RefsToResolve",
    "Vote",
    "cast_vote",
    "check_eligibility",
    "decision_resume_value",
    "notification_recipients",
    "refs_needing_resolution",
    "vote_from_json",
    "vote_to_json",
]
