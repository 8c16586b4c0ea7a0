"""The approval tally: scenario table, ask semantics and the delivered resume value."""

from __future__ import annotations

from typing import Any

import pytest

from waitgate.approval.eligibility import EligibilityRecord
from waitgate.approval.quorum import (
    Action,
    Asked,
    Decided,
    Outcome,
    Pending,
    QuorumPolicy,
    Vote,
    cast_vote,
    decision_resume_value,
)
from waitgate.errors import AlreadyVotedError

OVERRIDES = frozenset({"root"})
EDITED = {"editedArtifactData": {"body": "v2"}}
REFINED = {"refineFeedback": {"scope": "whole", "text": "shorter"}}


def _vote(principal: str, action: Action, second: int = 0, /, **fields: Any) -> Vote:
    matched_by = "override" if principal in OVERRIDES else "list"
    decided_at = f"2026-03-01T12:00:{second:02d}.000Z"
    record = EligibilityRecord(principal, matched_by, decided_at)
    return Vote(principal, action, decided_at, record, fields)


def _run(policy: QuorumPolicy, *casts: tuple[str, Action]) -> Outcome:
    """Cast each vote in turn, carrying the tally forward; return the last outcome."""
    votes: tuple[Vote, ...] = ()
    outcome: Outcome = Pending(votes)
    for second, (principal, action) in enumerate(casts):
        outcome = cast_vote(policy, votes, _vote(principal, action, second))
        votes = outcome.votes
    return outcome


def _summary(outcome: Outcome) -> tuple[str, str | None, tuple[str, ...]]:
    voters = tuple(vote.principal for vote in outcome.votes)
    if isinstance(outcome, Decided):
        return outcome.outcome, outcome.deciding_vote.principal, voters
    return type(outcome).__name__.lower(), None, voters


ONE = QuorumPolicy()
TWO_OF_THREE = QuorumPolicy(required_approvals=2)
MAJ3 = QuorumPolicy(required_approvals=3, rejection_policy="majority")
MAJ4 = QuorumPolicy(required_approvals=4, rejection_policy="majority")
BYPASS = QuorumPolicy(required_approvals=3, override_bypasses_quorum=True, override_principals=OVERRIDES)
NO_BYPASS = QuorumPolicy(required_approvals=2, override_principals=OVERRIDES)

SCENARIOS: list[tuple[str, QuorumPolicy, tuple[tuple[str, Action], ...], Any]] = [
    ("1-of-1 accept", ONE, (("a", "accept"),), ("accepted", "a", ("a",))),
    ("1-of-1 reject", ONE, (("a", "reject"),), ("rejected", "a", ("a",))),
    ("1-of-1 refine", ONE, (("a", "refine"),), ("refined", "a", ("a",))),
    ("1-of-1 edit-accept", ONE, (("a", "edit-accept"),), ("accepted", "a", ("a",))),
    ("2-of-3 first accept pends", TWO_OF_THREE, (("a", "accept"),), ("pending", None, ("a",))),
    (
        "2-of-3 second accept decides with both votes",
        TWO_OF_THREE,
        (("a", "accept"), ("b", "edit-accept")),
        ("accepted", "b", ("a", "b")),
    ),
    (
        "single-veto: first reject rejects even after an accept",
        TWO_OF_THREE,
        (("a", "accept"), ("b", "reject")),
        ("rejected", "b", ("a", "b")),
    ),
    (
        "refine exits at once mid-quorum",
        TWO_OF_THREE,
        (("a", "accept"), ("b", "refine")),
        ("refined", "b", ("a", "b")),
    ),
    ("majority n=3: one reject pends", MAJ3, (("a", "reject"),), ("pending", None, ("a",))),
    (
        "majority n=3: two rejects reject",
        MAJ3,
        (("a", "reject"), ("b", "accept"), ("c", "reject")),
        ("rejected", "c", ("a", "b", "c")),
    ),
    (
        "majority n=3: three accepts accept despite a reject",
        MAJ3,
        (("a", "reject"), ("b", "accept"), ("c", "accept"), ("d", "accept")),
        ("accepted", "d", ("a", "b", "c", "d")),
    ),
    (
        "majority n=4: two rejects pend",
        MAJ4,
        (("a", "reject"), ("b", "reject")),
        ("pending", None, ("a", "b")),
    ),
    (
        "majority n=4: three rejects reject",
        MAJ4,
        (("a", "reject"), ("b", "reject"), ("c", "accept"), ("d", "reject")),
        ("rejected", "d", ("a", "b", "c", "d")),
    ),
    (
        "override bypass accepts alone",
        BYPASS,
        (("root", "accept"),),
        ("accepted", "root", ("root",)),
    ),
    (
        "override bypass rejects alone after accepts",
        BYPASS,
        (("a", "accept"), ("b", "accept"), ("root", "reject")),
        ("rejected", "root", ("a", "b", "root")),
    ),
    (
        "override bypass edit-accept decides alone",
        BYPASS,
        (("root", "edit-accept"),),
        ("accepted", "root", ("root",)),
    ),
    ("override refine exits", BYPASS, (("root", "refine"),), ("refined", "root", ("root",))),
    (
        "override without bypass counts once",
        NO_BYPASS,
        (("root", "accept"),),
        ("pending", None, ("root",)),
    ),
    (
        "override without bypass plus one accept reaches 2",
        NO_BYPASS,
        (("root", "accept"), ("a", "accept")),
        ("accepted", "a", ("root", "a")),
    ),
    (
        "bypass on but voter is not an override principal",
        BYPASS,
        (("a", "accept"),),
        ("pending", None, ("a",)),
    ),
]


@pytest.mark.parametrize(
    ("policy", "casts", "expected"),
    [pytest.param(policy, casts, expected, id=name) for name, policy, casts, expected in SCENARIOS],
)
def test_scenarios(policy: QuorumPolicy, casts: tuple[tuple[str, Action], ...], expected: Any) -> None:
    # Given a policy and an empty tally
    # When the votes are cast in order
    outcome = _run(policy, *casts)
    # Then the last outcome (and the deciding vote and the votes kept) is as the rules say
    assert _summary(outcome) == expected


def test_repeated_vote_is_refused() -> None:
    # Given a 2-of-3 tally where "a" has accepted
    first = cast_vote(TWO_OF_THREE, (), _vote("a", "accept"))
    # When "a" votes again, with any action
    # Then it is 409 already_voted
    for action in ("accept", "reject", "refine", "edit-accept"):
        with pytest.raises(AlreadyVotedError) as caught:
            cast_vote(TWO_OF_THREE, first.votes, _vote("a", action, 1))
        assert (caught.value.status, caught.value.code) == (409, "already_voted")


def test_ask_is_not_a_vote() -> None:
    # Given a 2-of-3 tally where "a" has accepted
    tally = cast_vote(TWO_OF_THREE, (), _vote("a", "accept")).votes
    # When "b" asks, and "a" (who already voted) asks too
    asked = cast_vote(TWO_OF_THREE, tally, _vote("b", "ask", 1, feedback="why?"))
    again = cast_vote(TWO_OF_THREE, tally, _vote("a", "ask", 2))
    # Then neither decides nor enters the tally
    assert isinstance(asked, Asked) and asked.votes == tally
    assert asked.question.fields == {"feedback": "why?"}
    assert isinstance(again, Asked) and again.votes == tally
    # And "b" may still vote afterwards, which decides
    decided = cast_vote(TWO_OF_THREE, asked.votes, _vote("b", "accept", 3))
    assert isinstance(decided, Decided) and decided.outcome == "accepted"


def test_ask_on_one_of_one_does_not_decide() -> None:
    # Given a 1-of-1 approval / When someone asks / Then it stays undecided with no votes
    assert cast_vote(ONE, (), _vote("a", "ask")) == Asked(_vote("a", "ask"), ())


@pytest.mark.parametrize(
    "tally",
    [
        (_vote("a", "accept"),),  # 1-of-1 already accepted
        (_vote("a", "refine"),),
        (_vote("a", "ask"),),  # an ask must never be stored as a vote
    ],
)
def test_casting_on_a_decided_or_malformed_tally_is_a_programming_error(
    tally: tuple[Vote, ...],
) -> None:
    # Given a tally that is already decided (or holds an ask)
    # When anyone votes or asks
    # Then it is a ValueError: the caller must check the status first
    for action in ("accept", "ask"):
        with pytest.raises(ValueError):
            cast_vote(ONE, tally, _vote("b", action))


def test_duplicate_principal_in_stored_tally_is_a_programming_error() -> None:
    # Given a stored tally with the same principal twice / When a vote is cast / Then ValueError
    with pytest.raises(ValueError, match="twice"):
        cast_vote(MAJ4, (_vote("a", "reject"), _vote("a", "reject")), _vote("b", "accept"))


def test_policy_and_vote_validation() -> None:
    # Given impossible policies or votes / When built / Then they are refused
    with pytest.raises(ValueError):
        QuorumPolicy(required_approvals=0)
    with pytest.raises(ValueError):
        QuorumPolicy(rejection_policy="unanimous")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="action"):
        _vote("a", "approve")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="another principal"):
        Vote("a", "accept", "t", EligibilityRecord("b", "open", "t"))
    with pytest.raises(ValueError, match="fields may not carry"):
        _vote("a", "accept", decidedAt="t")


def test_resume_value_of_a_quorum_keeps_the_deciding_edit_accept() -> None:
    # Given a 2-of-3 tally: "a" accepts with feedback, then "b" edit-accepts
    first = cast_vote(TWO_OF_THREE, (), _vote("a", "accept", 0, feedback="ok"))
    deciding = _vote("b", "edit-accept", 7, decidedBy="Bob B.", **EDITED)
    decided = cast_vote(TWO_OF_THREE, first.votes, deciding)
    assert isinstance(decided, Decided)
    # When the resume value is built
    value = decision_resume_value(decided)
    # Then it is the deciding vote's members plus every vote in order with its eligibility
    assert value == {
        "action": "edit-accept",
        "decidedAt": "2026-03-01T12:00:07.000Z",
        "decidedBy": "Bob B.",
        "editedArtifactData": {"body": "v2"},
        "votes": [
            {
                "principal": "a",
                "action": "accept",
                "decidedAt": "2026-03-01T12:00:00.000Z",
                "eligibility": {
                    "principal": "a",
                    "matchedBy": "list",
                    "resolvedAt": "2026-03-01T12:00:00.000Z",
                },
                "feedback": "ok",
            },
            {
                "principal": "b",
                "action": "edit-accept",
                "decidedAt": "2026-03-01T12:00:07.000Z",
                "eligibility": {
                    "principal": "b",
                    "matchedBy": "list",
                    "resolvedAt": "2026-03-01T12:00:07.000Z",
                },
                "decidedBy": "Bob B.",
                "editedArtifactData": {"body": "v2"},
            },
        ],
    }


def test_resume_value_of_a_refine_carries_its_feedback() -> None:
    # Given a 1-of-1 refine / When the resume value is built / Then refineFeedback is delivered
    decided = cast_vote(ONE, (), _vote("a", "refine", **REFINED))
    assert isinstance(decided, Decided)
    value = decision_resume_value(decided)
    assert value["action"] == "refine"
    assert value["refineFeedback"] == REFINED["refineFeedback"]
    assert [vote["principal"] for vote in value["votes"]] == ["a"]
