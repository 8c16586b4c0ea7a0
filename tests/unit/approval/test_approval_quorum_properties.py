"""Property: whatever the policy and the order of votes, the tally decides once and consistently."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from waitgate.approval.eligibility import EligibilityRecord
from waitgate.approval.quorum import (
    ACCEPTING,
    Action,
    Asked,
    Decided,
    Pending,
    QuorumPolicy,
    Vote,
    cast_vote,
)
from waitgate.errors import AlreadyVotedError

PRINCIPALS = ("p1", "p2", "p3", "p4", "p5", "root1", "root2")
ACTIONS: tuple[Action, ...] = ("accept", "reject", "refine", "edit-accept", "ask")

policies = st.builds(
    QuorumPolicy,
    required_approvals=st.integers(min_value=1, max_value=5),
    rejection_policy=st.sampled_from(("single-veto", "majority")),
    override_bypasses_quorum=st.booleans(),
    override_principals=st.frozensets(st.sampled_from(("root1", "root2", "p1"))),
)
casts = st.lists(st.tuples(st.sampled_from(PRINCIPALS), st.sampled_from(ACTIONS)), min_size=1, max_size=25)


def _vote(principal: str, action: Action, index: int) -> Vote:
    at = f"2026-03-01T12:{index:02d}:00.000Z"
    return Vote(principal, action, at, EligibilityRecord(principal, "open", at))


def _check_decision(policy: QuorumPolicy, decided: Decided) -> None:
    votes, last = decided.votes, decided.deciding_vote
    accepts = sum(1 for vote in votes if vote.action in ACCEPTING)
    rejects = sum(1 for vote in votes if vote.action == "reject")
    bypass = policy.override_bypasses_quorum and last.principal in policy.override_principals
    assert votes[-1] is last
    if decided.outcome == "accepted":
        assert last.action in ACCEPTING
        assert accepts >= policy.required_approvals or bypass
    elif decided.outcome == "rejected":
        assert last.action == "reject"
        veto = policy.rejection_policy == "single-veto"
        majority = rejects >= policy.required_approvals // 2 + 1
        assert veto or majority or bypass
    else:
        assert last.action == "refine"


def _check_pending(policy: QuorumPolicy, votes: tuple[Vote, ...]) -> None:
    # Nothing that should have decided was missed.
    accepts = sum(1 for vote in votes if vote.action in ACCEPTING)
    rejects = sum(1 for vote in votes if vote.action == "reject")
    assert accepts < policy.required_approvals
    assert rejects < (1 if policy.rejection_policy == "single-veto" else policy.required_approvals // 2 + 1)
    assert all(vote.action != "refine" for vote in votes)
    if policy.override_bypasses_quorum:
        assert all(vote.principal not in policy.override_principals for vote in votes)


@settings(max_examples=examples(400), deadline=None)
@given(policy=policies, sequence=casts)
def test_random_votes_decide_once_and_agree_with_the_counts(
    policy: QuorumPolicy, sequence: list[tuple[str, Action]]
) -> None:
    # Given a random policy and a random sequence of votes by random principals
    votes: tuple[Vote, ...] = ()
    decisions: list[Decided] = []
    # When the votes are cast in order, skipping repeats, until one decides
    for index, (principal, action) in enumerate(sequence):
        vote = _vote(principal, action, index)
        if decisions:
            # Then nothing can be cast on a decided tally (no second decision)
            with pytest.raises(ValueError):
                cast_vote(policy, votes, vote)
            continue
        try:
            outcome = cast_vote(policy, votes, vote)
        except AlreadyVotedError:
            assert principal in {v.principal for v in votes}
            continue
        if isinstance(outcome, Asked):
            assert outcome.votes == votes
            continue
        assert outcome.votes == (*votes, vote)
        votes = outcome.votes
        if isinstance(outcome, Decided):
            decisions.append(outcome)
        else:
            assert isinstance(outcome, Pending)
            _check_pending(policy, votes)
    # Then each principal counts once, and any decision agrees with the counts
    principals = [vote.principal for vote in votes]
    assert len(principals) == len(set(principals))
    assert all(vote.action != "ask" for vote in votes)
    assert len(decisions) <= 1
    for decided in decisions:
        _check_decision(policy, decided)
