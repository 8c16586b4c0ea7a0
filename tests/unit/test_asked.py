"""The Task input's `notify`: what is accepted, what is refused (by member), and the eligibility
fields it reads as (always binding: fails closed)."""

from __future__ import annotations

from typing import Any

import pytest

from waitgate.approval import ApproverFields
from waitgate.errors import InterruptPayloadInvalidError
from waitgate.run.asked import MAX_NAMES, notify_fields, parse_notify


def test_absent_and_null_name_nobody() -> None:
    assert parse_notify(None) is None
    assert notify_fields(None) is None


def test_a_notify_is_kept_as_given_without_its_empty_members() -> None:
    given = {"principals": ["alice"], "groupRefs": ["ops"], "roleRefs": []}
    assert parse_notify(given) == {"principals": ["alice"], "groupRefs": ["ops"]}


@pytest.mark.parametrize(
    ("value", "at"),
    [
        (["alice"], "(at notify)"),
        ({}, "(at notify)"),
        ({"principals": []}, "(at notify)"),
        ({"people": ["alice"]}, "(at notify.people)"),
        ({"principals": "alice"}, "(at notify.principals)"),
        ({"principals": ["alice", ""]}, "(at notify.principals[1])"),
        ({"groupRefs": [7]}, "(at notify.groupRefs[0])"),
        ({"roleRefs": ["x" * 256]}, "(at notify.roleRefs[0])"),
        ({"principals": ["alice", "alice"]}, "(at notify.principals)"),
        ({"principals": [f"p{n}" for n in range(MAX_NAMES + 1)]}, "(at notify.principals)"),
    ],
)
def test_a_malformed_notify_is_refused_by_member(value: Any, at: str) -> None:
    with pytest.raises(InterruptPayloadInvalidError) as raised:
        parse_notify(value)
    assert raised.value.detail.endswith(at)
    assert raised.value.status == 400


def test_its_fields_always_bind_even_without_principals() -> None:
    fields = notify_fields({"groupRefs": ["ops"]})
    assert fields == ApproverFields(approvers_list=(), approver_group_refs=("ops",))
    assert fields.binds(frozenset({"principal"}))  # an unadvertised ref kind names nobody, never anyone
