"""Approver eligibility, directory refs to resolve, and notification recipients."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from waitgate.approval.eligibility import (
    ApproverFields,
    EligibilityRecord,
    Memberships,
    RefsToResolve,
    check_eligibility,
    notification_recipients,
    refs_needing_resolution,
)
from waitgate.errors import ForbiddenError

NOW = datetime(2026, 3, 1, 12, 30, 5, 123456, tzinfo=UTC)
ALL_KINDS = frozenset({"principal", "group", "role"})
FIELDS = ApproverFields(
    approvers_list=("alice",),
    approver_group_refs=("g-finance", "g-legal"),
    approver_role_refs=("r-cfo", "r-auditor"),
)


def _check(
    principal: str,
    *,
    fields: ApproverFields = FIELDS,
    ref_kinds: frozenset[str] = ALL_KINDS,
    overrides: frozenset[str] = frozenset({"root"}),
    groups: frozenset[str] = frozenset(),
    roles: frozenset[str] = frozenset(),
) -> EligibilityRecord:
    return check_eligibility(
        fields,
        ref_kinds=ref_kinds,
        override_principals=overrides,
        principal=principal,
        memberships=Memberships(groups=groups, roles=roles),
        now=NOW,
    )


@pytest.mark.parametrize(
    ("principal", "groups", "roles", "expected"),
    [
        ("alice", frozenset(), frozenset(), "list"),
        # the list wins over a group membership
        ("alice", frozenset({"g-finance"}), frozenset({"r-cfo"}), "list"),
        ("bob", frozenset({"g-legal"}), frozenset(), "group:g-legal"),
        # group refs in payload order, not set order
        ("bob", frozenset({"g-legal", "g-finance"}), frozenset(), "group:g-finance"),
        # groups win over roles
        ("bob", frozenset({"g-legal"}), frozenset({"r-cfo"}), "group:g-legal"),
        ("carol", frozenset({"unrelated"}), frozenset({"r-auditor"}), "role:r-auditor"),
        ("carol", frozenset(), frozenset({"r-auditor", "r-cfo"}), "role:r-cfo"),
        ("root", frozenset(), frozenset(), "override"),
        # an override principal who is also a member records the membership
        ("root", frozenset({"g-legal"}), frozenset(), "group:g-legal"),
    ],
)
def test_eligible_principal_records_how_it_matched(
    principal: str, groups: frozenset[str], roles: frozenset[str], expected: str
) -> None:
    # Given an approval with a list, group refs and role refs, all kinds advertised
    # When the principal with these memberships is checked
    record = _check(principal, groups=groups, roles=roles)
    # Then it is eligible, matched by the first rule in precedence order, stamped at decision time
    assert record == EligibilityRecord(principal, expected, "2026-03-01T12:30:05.123Z")


def test_no_fields_means_open() -> None:
    # Given an approval without eligibility fields
    # When anyone allowed on the surface is checked
    record = _check("anyone", fields=ApproverFields())
    # Then they are eligible as "open"
    assert record.matched_by == "open"


def test_override_principal_on_an_open_approval_records_override() -> None:
    # Given an approval without eligibility fields and a host override principal
    # When the override principal is checked
    # Then the record says "override", the more specific reason
    assert _check("root", fields=ApproverFields()).matched_by == "override"


def test_unadvertised_group_refs_are_ignored() -> None:
    # Given a host that advertises only principals and roles
    kinds = frozenset({"principal", "role"})
    # When a member of a referenced group (but not in the list) is checked
    # Then the group ref does not make them eligible
    with pytest.raises(ForbiddenError):
        _check("bob", ref_kinds=kinds, groups=frozenset({"g-finance"}))
    # And the roles still bind
    assert _check("carol", ref_kinds=kinds, roles=frozenset({"r-cfo"})).matched_by == "role:r-cfo"


def test_unadvertised_refs_that_leave_nothing_mean_open() -> None:
    # Given an approval with only group and role refs, on a host advertising neither kind
    fields = ApproverFields(approver_group_refs=("g-finance",), approver_role_refs=("r-cfo",))
    # When anyone is checked
    record = _check("stranger", fields=fields, ref_kinds=frozenset({"principal"}))
    # Then the ignored fields leave the approval open
    assert record.matched_by == "open"


@pytest.mark.parametrize(
    "fields",
    [
        ApproverFields(approvers_list=()),
        ApproverFields(approver_group_refs=()),
        ApproverFields(approver_role_refs=()),
        ApproverFields(approvers_list=(), approver_group_refs=(), approver_role_refs=()),
    ],
    ids=["empty list", "empty group refs", "empty role refs", "all empty"],
)
def test_a_present_empty_field_binds_and_lets_nobody_in(fields: ApproverFields) -> None:
    # Given an approval whose eligibility field is present but empty
    # When a caller who is allowed on the surface (and even a member of some group) is checked
    # Then they are not eligible: an empty list fails closed, it never means "anyone"
    with pytest.raises(ForbiddenError):
        _check("anyone", fields=fields, groups=frozenset({"g-finance"}), roles=frozenset({"r-cfo"}))
    # And an override principal still decides, recorded as override
    assert _check("root", fields=fields).matched_by == "override"


def test_approvers_list_binds_even_without_principal_kind() -> None:
    # Given a host advertising no ref kinds at all and an approval with a list
    # When someone outside the list is checked
    # Then the list still binds (it binds everywhere)
    with pytest.raises(ForbiddenError):
        _check("stranger", fields=ApproverFields(approvers_list=("alice",)), ref_kinds=frozenset())


def test_not_eligible_is_forbidden_without_leaking_the_list() -> None:
    # Given an approval with a list, groups and roles
    # When a principal matching none of them is checked
    with pytest.raises(ForbiddenError) as caught:
        _check("mallory", groups=frozenset({"g-other"}), roles=frozenset({"r-other"}))
    # Then the error is 403 forbidden and names no approver or ref
    error = caught.value
    assert (error.status, error.code) == (403, "forbidden")
    assert "not an eligible approver" in error.detail
    for secret in ("alice", "g-finance", "g-legal", "r-cfo", "r-auditor", "root"):
        assert secret not in error.detail


def test_resolved_at_is_utc_rfc3339() -> None:
    # Given a decision time in another offset
    moment = datetime(2026, 3, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    # When eligibility is recorded
    record = check_eligibility(
        ApproverFields(),
        ref_kinds=ALL_KINDS,
        override_principals=frozenset(),
        principal="p",
        memberships=Memberships(),
        now=moment,
    )
    # Then resolvedAt is the same instant in UTC with a Z
    assert record.resolved_at == "2026-03-01T12:00:00.000Z"


def test_naive_now_and_unknown_ref_kinds_are_programming_errors() -> None:
    # Given a naive datetime, or a ref kind outside principal/group/role
    # When eligibility is checked
    # Then it is refused as a caller bug
    with pytest.raises(ValueError, match="timezone"):
        check_eligibility(
            FIELDS,
            ref_kinds=ALL_KINDS,
            override_principals=frozenset(),
            principal="alice",
            memberships=Memberships(),
            now=datetime(2026, 3, 1),
        )
    with pytest.raises(ValueError, match="ref kinds"):
        _check("alice", ref_kinds=frozenset({"team"}))


def test_eligibility_record_refuses_unknown_match() -> None:
    # Given / When a record with an unknown matched_by is built / Then it is refused
    with pytest.raises(ValueError):
        EligibilityRecord("p", "group:", "2026-03-01T12:00:00.000Z")
    with pytest.raises(ValueError):
        EligibilityRecord("p", "team:x", "2026-03-01T12:00:00.000Z")


@pytest.mark.parametrize(
    ("principal", "ref_kinds", "expected"),
    [
        # in the list: no read can change the record
        ("alice", ALL_KINDS, RefsToResolve()),
        ("bob", ALL_KINDS, RefsToResolve(("g-finance", "g-legal"), ("r-cfo", "r-auditor"))),
        # an override principal still needs the reads: a membership ranks before "override"
        ("root", ALL_KINDS, RefsToResolve(("g-finance", "g-legal"), ("r-cfo", "r-auditor"))),
        ("bob", frozenset({"group"}), RefsToResolve(("g-finance", "g-legal"), ())),
        ("bob", frozenset({"role"}), RefsToResolve((), ("r-cfo", "r-auditor"))),
        ("bob", frozenset({"principal"}), RefsToResolve()),
    ],
)
def test_refs_needing_resolution(principal: str, ref_kinds: frozenset[str], expected: RefsToResolve) -> None:
    # Given the approval's fields and the host's advertised kinds
    # When the adapter asks which refs to look the principal up in
    # Then only advertised kinds are named, and none when the list already matches
    assert refs_needing_resolution(FIELDS, ref_kinds=ref_kinds, principal=principal) == expected


def test_refs_needing_resolution_deduplicates_in_order() -> None:
    # Given repeated refs
    fields = ApproverFields(approver_group_refs=("g2", "g1", "g2"), approver_role_refs=("r", "r"))
    # When asked / Then each ref is read once, first-seen order kept
    assert refs_needing_resolution(fields, ref_kinds=ALL_KINDS, principal="x") == RefsToResolve(
        ("g2", "g1"), ("r",)
    )


GROUPS = {"g1": ("bob", "alice", "dave"), "g2": ("erin",)}
ROLES = {"r1": ("dave", "frank", "bob")}


@pytest.mark.parametrize(
    ("audience", "ref_kinds", "expected"),
    [
        # union: list first, then group members, then role holders, first-seen order, no repeats
        (None, ALL_KINDS, ("alice", "carol", "bob", "dave", "erin", "frank")),
        # an empty audience counts as omitted
        ((), ALL_KINDS, ("alice", "carol", "bob", "dave", "erin", "frank")),
        # unadvertised kinds contribute nobody
        (None, frozenset({"principal", "role"}), ("alice", "carol", "dave", "frank", "bob")),
        (None, frozenset({"group"}), ("alice", "carol", "bob", "dave", "erin")),
        (None, frozenset(), ("alice", "carol")),
        # an audience replaces the union, even naming people who are not eligible
        (("zoe", "alice", "zoe"), ALL_KINDS, ("zoe", "alice")),
    ],
)
def test_notification_recipients(
    audience: tuple[str, ...] | None, ref_kinds: frozenset[str], expected: tuple[str, ...]
) -> None:
    # Given a list, resolved group members and role holders
    # When the recipients are computed
    recipients = notification_recipients(audience, ("alice", "carol"), GROUPS, ROLES, ref_kinds)
    # Then they are ordered and de-duplicated as the rules say
    assert recipients == expected
