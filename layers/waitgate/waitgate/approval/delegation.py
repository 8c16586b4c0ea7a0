"""Delegation, pure: while alice is away, bob decides what she may decide (docs/approvals.md,
"Delegation"). The directory keeps the delegations; these rules say whether one holds, and whose
seat a vote takes.

A delegation holds while `now < until` (no `until`: until it is ended) and the interrupt's kind is
one it names. The delegate's vote is recorded as `matchedBy: "delegate-of:<delegator>"` and takes
the delegator's seat: one vote per seat, whoever casts it (fails closed: the delegator cannot vote
after the delegate did, nor the delegate after the delegator).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from waitgate.errors import AlreadyVotedError

DELEGATE_OF: Final = "delegate-of:"
DELEGATION_KINDS: Final = frozenset({"approval"})
SEAT_TAKEN_DETAIL: Final = "This approver's seat has already voted (in person or by a delegate)."


@dataclass(frozen=True)
class Delegation:
    """`delegate` decides for `delegator` until `until` (None: until ended), for `kinds`."""

    delegator: str
    delegate: str
    until: datetime | None = None
    kinds: frozenset[str] = DELEGATION_KINDS

    def __post_init__(self) -> None:
        if not self.delegator or not self.delegate:
            raise ValueError("a delegation names both principals")
        if self.delegator == self.delegate:
            raise ValueError("a principal cannot delegate to themselves")
        if self.until is not None and self.until.utcoffset() is None:
            raise ValueError("until must be timezone-aware")
        unknown = self.kinds - DELEGATION_KINDS
        if not self.kinds or unknown:
            raise ValueError(f"kinds must be among {sorted(DELEGATION_KINDS)}")

    def holds(self, now: datetime, kind: str) -> bool:
        return kind in self.kinds and (self.until is None or now < self.until)


def delegate_match(delegator: str) -> str:
    """The `matchedBy` of a delegate's vote."""
    return f"{DELEGATE_OF}{delegator}"


def seat_of(principal: str, matched_by: str) -> str:
    """Whose seat a vote takes: the delegator's for a delegate, else the voter's own."""
    return matched_by.removeprefix(DELEGATE_OF) if matched_by.startswith(DELEGATE_OF) else principal


def holding(delegations: Iterable[Delegation], now: datetime, kind: str) -> tuple[Delegation, ...]:
    """The delegations that hold now for this kind, in the order given."""
    return tuple(delegation for delegation in delegations if delegation.holds(now, kind))


def taken_seats(votes: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    """The seats the stored votes (vote_to_json form) took."""
    seats: set[str] = set()
    for vote in votes:
        eligibility = vote.get("eligibility")
        matched_by = eligibility.get("matchedBy", "") if isinstance(eligibility, Mapping) else ""
        seats.add(seat_of(str(vote.get("principal", "")), str(matched_by)))
    return frozenset(seats)


def check_seat_free(votes: Iterable[Mapping[str, Any]], principal: str, matched_by: str) -> None:
    """AlreadyVotedError when the seat this vote would take has voted, by anyone."""
    seat = seat_of(principal, matched_by)
    for vote in votes:
        if str(vote.get("principal", "")) == principal:
            return  # the voter's own repeat: the quorum's one-vote-per-principal rule says it
    if seat in taken_seats(votes):
        raise AlreadyVotedError(SEAT_TAKEN_DETAIL)
