"""Approvers an escalation step added: eligible from that step on as `escalation:<step>`, after the
interrupt's own fields and before an override, honoured as the advertised ref kinds say."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from waitgate.approval import (
    AddedApprovers,
    ApproverFields,
    Memberships,
    RefsToResolve,
    check_eligibility,
    refs_needing_resolution,
)
from waitgate.errors import ForbiddenError

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
ALL_KINDS = frozenset({"principal", "group", "role"})
OWN = ApproverFields(approvers_list=("alice",), approver_group_refs=("release",))
CAROL = AddedApprovers(1, ApproverFields(approvers_list=("carol",)))
LEADS = AddedApprovers(2, ApproverFields(approver_group_refs=("leads",), approver_role_refs=("sre",)))


def matched(
    principal: str,
    added: tuple[AddedApprovers, ...],
    *,
    fields: ApproverFields = OWN,
    groups: frozenset[str] = frozenset(),
    roles: frozenset[str] = frozenset(),
    ref_kinds: frozenset[str] = ALL_KINDS,
) -> str:
    return check_eligibility(
        fields,
        ref_kinds=ref_kinds,
        override_principals=frozenset({"root"}),
        principal=principal,
        memberships=Memberships(groups=groups, roles=roles),
        now=NOW,
        added=added,
    ).matched_by


def test_carol_is_refused_before_the_step_and_eligible_after_it() -> None:
    with pytest.raises(ForbiddenError):
        matched("carol", ())
    assert matched("carol", (CAROL,)) == "escalation:1"


def test_the_interrupts_own_fields_come_first_then_the_steps_in_order_then_override() -> None:
    assert matched("alice", (CAROL,)) == "list"
    assert matched("bob", (LEADS,), groups=frozenset({"release", "leads"})) == "group:release"
    assert matched("dan", (CAROL, LEADS), roles=frozenset({"sre"})) == "escalation:2"
    assert matched("root", (AddedApprovers(0, ApproverFields(approvers_list=("root",))),)) == "escalation:0"
    assert matched("root", (CAROL,)) == "override"


def test_added_refs_follow_the_advertised_ref_kinds() -> None:
    with pytest.raises(ForbiddenError):
        matched("erin", (LEADS,), groups=frozenset({"leads"}), ref_kinds=frozenset({"principal", "role"}))
    assert matched(
        "erin", (LEADS,), roles=frozenset({"sre"}), ref_kinds=frozenset({"principal", "role"})
    ) == ("escalation:2")


def test_an_open_approval_stays_open_for_everyone_else() -> None:
    assert matched("carol", (CAROL,), fields=ApproverFields()) == "escalation:1"
    assert matched("zed", (CAROL,), fields=ApproverFields()) == "open"


def test_the_directory_is_asked_about_added_groups_and_roles_too() -> None:
    refs = refs_needing_resolution(OWN, ref_kinds=ALL_KINDS, principal="dan", added=(CAROL, LEADS))
    assert refs == RefsToResolve(groups=("release", "leads"), roles=("sre",))
    assert (
        refs_needing_resolution(OWN, ref_kinds=ALL_KINDS, principal="alice", added=(LEADS,))
        == RefsToResolve()
    )
