"""The approval tally (host profile, "Approval"): votes in, at most one decision out.

Pure rules over an ordered tuple of votes; the caller persists the tuple (as `vote_to_json` text)
and checks the interrupt's status before casting. Rules:

- accept and edit-accept count as accept; reject as reject; refine exits at once ("refined").
- one vote per principal (`AlreadyVotedError`).
- accepted when accepts >= n; `single-veto`: the first reject rejects; `majority`: rejected when
  rejects >= floor(n/2) + 1.
- an override principal with `override_bypasses_quorum` decides alone with accept/edit-accept or
  reject (a refine exits for anyone); without the bypass their vote counts once.
- `ask` is not a vote: it never decides, is not added to the votes, does not use up the
  principal's one vote, and may come from a principal who already voted. The caller records it
  separately (visible on inspect, notified to the agent side).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeAlias, cast, get_args

from waitgate.approval.eligibility import EligibilityRecord
from waitgate.errors import AlreadyVotedError

Action: TypeAlias = Literal["accept", "reject", "refine", "edit-accept", "ask"]
RejectionPolicy: TypeAlias = Literal["single-veto", "majority"]
DecisionOutcome: TypeAlias = Literal["accepted", "rejected", "refined"]

ACTIONS: frozenset[str] = frozenset(get_args(Action))
ACCEPTING: frozenset[str] = frozenset({"accept", "edit-accept"})
RESERVED_FIELDS: frozenset[str] = frozenset({"principal", "action", "decidedAt", "eligibility", "votes"})


@dataclass(frozen=True)
class Vote:
    """One principal's resolve. `fields` are the resume value's other members (feedback,
    refineFeedback, editedArtifactData, decidedBy, ...), kept as given; they may not repeat the
    members `Vote` holds itself (`RESERVED_FIELDS`)."""

    principal: str
    action: Action
    decided_at: str
    eligibility: EligibilityRecord
    fields: Mapping[str, object] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown action {self.action!r}")
        if self.eligibility.principal != self.principal:
            raise ValueError("the eligibility record belongs to another principal")
        clash = RESERVED_FIELDS.intersection(self.fields)
        if clash:
            raise ValueError(f"fields may not carry {sorted(clash)}")
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))


@dataclass(frozen=True)
class QuorumPolicy:
    """The interrupt's quorum fields plus the host's override configuration."""

    required_approvals: int = 1
    rejection_policy: RejectionPolicy = "single-veto"
    override_bypasses_quorum: bool = False
    override_principals: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: Mapping[str, Any], override_principals: frozenset[str] = frozenset()) -> QuorumPolicy:
        """The approval payload's quorum fields (their defaults when absent) with the host's overrides."""
        return cls(
            required_approvals=int(data.get("requiredApprovals", 1)),
            rejection_policy=data.get("rejectionPolicy", "single-veto"),
            override_bypasses_quorum=bool(data.get("overrideBypassesQuorum", False)),
            override_principals=override_principals,
        )

    def __post_init__(self) -> None:
        if self.required_approvals < 1:
            raise ValueError("required_approvals must be at least 1")
        if self.rejection_policy not in ("single-veto", "majority"):
            raise ValueError(f"unknown rejection policy {self.rejection_policy!r}")

    @property
    def rejections_needed(self) -> int:
        """Rejects that reject the interrupt: 1 under single-veto, floor(n/2)+1 under majority."""
        if self.rejection_policy == "single-veto":
            return 1
        return self.required_approvals // 2 + 1

    def bypasses(self, vote: Vote) -> bool:
        """Whether this vote decides alone (override principal with the bypass on)."""
        return self.override_bypasses_quorum and vote.principal in self.override_principals


@dataclass(frozen=True)
class Pending:
    """The vote was recorded; the interrupt stays suspended."""

    votes: tuple[Vote, ...]


@dataclass(frozen=True)
class Decided:
    """The vote decided the interrupt; `votes` ends with `deciding_vote`."""

    outcome: DecisionOutcome
    deciding_vote: Vote
    votes: tuple[Vote, ...]


@dataclass(frozen=True)
class Asked:
    """A question: never a decision and not a vote; `votes` is the tally unchanged."""

    question: Vote
    votes: tuple[Vote, ...]


Outcome: TypeAlias = Pending | Decided | Asked


def cast_vote(policy: QuorumPolicy, votes_so_far: tuple[Vote, ...], new_vote: Vote) -> Outcome:
    """Apply `new_vote` to an undecided tally.

    Raises `ValueError` when `votes_so_far` is already decided or malformed (asks or repeated
    principals in it) — the caller checks the interrupt's status first — and
    `AlreadyVotedError` when the new vote's principal has voted before.
    """
    _check_undecided(policy, votes_so_far)
    if new_vote.action == "ask":
        return Asked(question=new_vote, votes=votes_so_far)
    if any(vote.principal == new_vote.principal for vote in votes_so_far):
        raise AlreadyVotedError("This principal has already voted on this interrupt.")
    votes = (*votes_so_far, new_vote)
    outcome = _outcome(policy, votes, new_vote)
    if outcome is None:
        return Pending(votes=votes)
    return Decided(outcome=outcome, deciding_vote=new_vote, votes=votes)


def decision_resume_value(decided: Decided) -> dict[str, Any]:
    """The resumeValue delivered to the workflow: the deciding vote's own members (its action,
    decidedAt, feedback, refineFeedback, editedArtifactData, decidedBy when present) plus
    `votes`, every vote in cast order with its eligibility record. Always carries `votes`, also
    for a 1-of-1 decision, so consumers see one shape."""
    deciding = decided.deciding_vote
    return {
        "action": deciding.action,
        "decidedAt": deciding.decided_at,
        **deciding.fields,
        "votes": [vote_to_json(vote) for vote in decided.votes],
    }


def vote_to_json(vote: Vote) -> dict[str, Any]:
    """The stored (camelCase) form of a vote; `vote_from_json` gives the same vote back."""
    return {
        "principal": vote.principal,
        "action": vote.action,
        "decidedAt": vote.decided_at,
        "eligibility": {
            "principal": vote.eligibility.principal,
            "matchedBy": vote.eligibility.matched_by,
            "resolvedAt": vote.eligibility.resolved_at,
        },
        **vote.fields,
    }


def vote_from_json(data: Mapping[str, Any]) -> Vote:
    """Rebuild a stored vote exactly; the eligibility record is history, never re-resolved."""
    eligibility = data.get("eligibility")
    if not isinstance(eligibility, Mapping):
        raise ValueError("a stored vote needs an eligibility object")
    record = EligibilityRecord(
        principal=_text(eligibility, "principal"),
        matched_by=_text(eligibility, "matchedBy"),
        resolved_at=_text(eligibility, "resolvedAt"),
    )
    rest = {key: value for key, value in data.items() if key not in RESERVED_FIELDS}
    return Vote(
        principal=_text(data, "principal"),
        action=cast(Action, _text(data, "action")),
        decided_at=_text(data, "decidedAt"),
        eligibility=record,
        fields=rest,
    )


def _outcome(policy: QuorumPolicy, votes: tuple[Vote, ...], last: Vote) -> DecisionOutcome | None:
    """What `votes` (ending with `last`) decides, judged on the vote just cast."""
    if last.action == "refine":
        return "refined"
    accepting = last.action in ACCEPTING
    if policy.bypasses(last):
        return "accepted" if accepting else "rejected"
    if accepting:
        accepts = sum(1 for vote in votes if vote.action in ACCEPTING)
        return "accepted" if accepts >= policy.required_approvals else None
    rejects = sum(1 for vote in votes if vote.action == "reject")
    return "rejected" if rejects >= policy.rejections_needed else None


def _check_undecided(policy: QuorumPolicy, votes: tuple[Vote, ...]) -> None:
    """Replay `votes` one by one; any decision (or a malformed tally) is a caller bug."""
    seen: set[str] = set()
    for index, vote in enumerate(votes):
        if vote.action == "ask":
            raise ValueError("an ask is not a vote and must not be in the tally")
        if vote.principal in seen:
            raise ValueError(f"principal {vote.principal!r} appears twice in the tally")
        seen.add(vote.principal)
        if _outcome(policy, votes[: index + 1], vote) is not None:
            raise ValueError("the tally is already decided; check the interrupt's status first")


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"a stored vote needs a string {key!r}")
    return value
