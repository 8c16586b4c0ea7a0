"""The delegation rules, pure: when one holds, whose seat a vote takes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.approval.delegation import Delegation, check_seat_free, holding, seat_of, taken_seats
from waitgate.approval.eligibility import EligibilityRecord
from waitgate.errors import AlreadyVotedError

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)


def test_it_holds_before_until_and_for_its_kinds_only() -> None:
    delegation = Delegation("alice", "bob", until=NOW)
    assert delegation.holds(NOW - timedelta(milliseconds=1), "approval")
    assert not delegation.holds(NOW, "approval")
    assert not delegation.holds(NOW - timedelta(hours=1), "input")
    assert holding([delegation, Delegation("carol", "bob")], NOW, "approval") == (Delegation("carol", "bob"),)


@pytest.mark.parametrize(
    "arguments",
    [
        {"delegator": "alice", "delegate": "alice"},
        {"delegator": "", "delegate": "bob"},
        {"delegator": "alice", "delegate": "bob", "kinds": frozenset()},
        {"delegator": "alice", "delegate": "bob", "kinds": frozenset({"input"})},
        {"delegator": "alice", "delegate": "bob", "until": datetime(2026, 12, 3)},
    ],
)
def test_a_delegation_that_is_not_one_is_refused(arguments: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Delegation(**arguments)  # type: ignore[arg-type]


def test_a_delegates_vote_takes_the_delegators_seat() -> None:
    assert seat_of("bob", "delegate-of:alice") == "alice"
    assert seat_of("bob", "list") == "bob"
    record = EligibilityRecord("bob", "delegate-of:alice", "2026-12-03T10:00:00.000Z")
    assert record.matched_by == "delegate-of:alice"  # a known match


def test_a_voters_own_repeat_is_left_to_the_one_vote_per_principal_rule() -> None:
    # bob voted for alice as her delegate; his second vote is no seat question (the quorum refuses it)
    by_delegate = [{"principal": "bob", "eligibility": {"matchedBy": "delegate-of:alice"}}]
    check_seat_free(by_delegate, "bob", "delegate-of:alice")
    check_seat_free(by_delegate, "bob", "list")


@given(st.text(min_size=1), st.text(min_size=1))
def test_a_seat_taken_in_person_or_by_a_delegate_refuses_the_other(alice: str, bob: str) -> None:
    if alice == bob:
        return
    in_person = [{"principal": alice, "eligibility": {"matchedBy": "list"}}]
    by_delegate = [{"principal": bob, "eligibility": {"matchedBy": f"delegate-of:{alice}"}}]
    assert taken_seats(in_person) == taken_seats(by_delegate) == {alice}
    with pytest.raises(AlreadyVotedError):
        check_seat_free(in_person, bob, f"delegate-of:{alice}")
    with pytest.raises(AlreadyVotedError):
        check_seat_free(by_delegate, alice, "list")
    check_seat_free(in_person, bob, "list")  # bob's own seat is free
