"""Stored votes: JSON text in the table, read back exactly (eligibility is history)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from waitgate.approval.eligibility import EligibilityRecord
from waitgate.approval.quorum import Action, Vote, vote_from_json, vote_to_json

EDITED = {"editedArtifactData": {"body": "v2"}}
REFINED = {"refineFeedback": {"scope": "items", "itemIds": ["i1", "i2"]}}


def _vote(principal: str, action: Action, second: int = 0, /, **fields: Any) -> Vote:
    decided_at = f"2026-03-01T12:00:{second:02d}.000Z"
    record = EligibilityRecord(principal, "list", decided_at)
    return Vote(principal, action, decided_at, record, fields)


@pytest.mark.parametrize(
    "vote",
    [
        _vote("a", "accept"),
        _vote("root", "reject", 3, feedback="no", decidedBy="ops"),
        _vote("c", "refine", **REFINED),
        _vote("d", "edit-accept", **EDITED),
        Vote("e", "ask", "t", EligibilityRecord("e", "group:g:with:colons", "r"), {"x": [1, None]}),
    ],
)
def test_stored_vote_round_trips_exactly(vote: Vote) -> None:
    # Given a vote / When it is stored as JSON text and read back
    text = json.dumps(vote_to_json(vote))
    back = vote_from_json(json.loads(text))
    # Then it is the same vote, eligibility included (never re-resolved), and the same JSON
    assert back == vote
    assert json.dumps(vote_to_json(back)) == text


@pytest.mark.parametrize(
    "data",
    [
        {"principal": "a", "action": "accept", "decidedAt": "t"},
        {"principal": "a", "action": "accept", "decidedAt": "t", "eligibility": "list"},
        {
            "principal": "a",
            "action": "accept",
            "eligibility": {"principal": "a", "matchedBy": "list", "resolvedAt": "t"},
        },
        {
            "principal": "a",
            "action": "approve",
            "decidedAt": "t",
            "eligibility": {"principal": "a", "matchedBy": "list", "resolvedAt": "t"},
        },
    ],
)
def test_malformed_stored_vote_is_refused(data: dict[str, Any]) -> None:
    # Given a stored vote missing or mangling a member / When read / Then ValueError
    with pytest.raises(ValueError):
        vote_from_json(data)
