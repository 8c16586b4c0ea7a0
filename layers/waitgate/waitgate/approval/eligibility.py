"""Who may decide an approval, and who is told about it (host profile, "Approver eligibility").

Pure rules: the caller reads the directory (only the refs `refs_needing_resolution` names), then
passes the principal's memberships here. The returned `EligibilityRecord` is stored with the vote
and is history from then on: replay never re-resolves it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from waitgate.errors import ForbiddenError

REF_KINDS: frozenset[str] = frozenset({"principal", "group", "role"})
NOT_ELIGIBLE_DETAIL = "The principal is not an eligible approver for this interrupt."

_MATCHED_BY = re.compile(
    r"\A(?:list|override|open|escalation:\d+|(?:group|role|delegate-of):.+)\Z", re.DOTALL
)


@dataclass(frozen=True)
class ApproverFields:
    """The interrupt's eligibility fields, as the approval payload carries them: None when the field
    is absent. A present field binds even when it is empty (fails closed): `approversList: []` means
    nobody but an override principal, never "anyone"."""

    approvers_list: tuple[str, ...] | None = None
    approver_group_refs: tuple[str, ...] | None = None
    approver_role_refs: tuple[str, ...] | None = None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> ApproverFields:
        """The approval payload's fields; an absent one is None, a present one binds even when empty."""

        def present(name: str) -> tuple[str, ...] | None:
            value = data.get(name)
            return None if value is None else tuple(value)

        return cls(present("approversList"), present("approverGroupRefs"), present("approverRoleRefs"))

    def binds(self, ref_kinds: frozenset[str]) -> bool:
        """Whether any field restricts who may decide (unadvertised ref kinds are ignored)."""
        return (
            self.approvers_list is not None
            or ("group" in ref_kinds and self.approver_group_refs is not None)
            or ("role" in ref_kinds and self.approver_role_refs is not None)
        )


@dataclass(frozen=True)
class AddedApprovers:
    """Approvers an escalation step added (docs/escalation.md): eligible from that step on, matched as
    `escalation:<step>`, after the interrupt's own fields and before an override."""

    step: int
    fields: ApproverFields

    @property
    def matched_by(self) -> str:
        return f"escalation:{self.step}"


@dataclass(frozen=True)
class Memberships:
    """The groups and roles the directory resolved for one principal, at decision time."""

    groups: frozenset[str] = frozenset()
    roles: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RefsToResolve:
    """The group and role refs the caller must look the principal up in (in payload order)."""

    groups: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()


@dataclass(frozen=True)
class EligibilityRecord:
    """Why a principal may decide.

    `matched_by` is `list`, `group:<ref>`, `role:<ref>`, `escalation:<step>`, `override`, `open`,
    or `delegate-of:<principal>` (waitgate.approval.delegation).
    """

    principal: str
    matched_by: str
    resolved_at: str

    def __post_init__(self) -> None:
        if not _MATCHED_BY.match(self.matched_by):
            raise ValueError(f"matched_by {self.matched_by!r} is not a known eligibility match")


def refs_needing_resolution(
    fields: ApproverFields,
    *,
    ref_kinds: frozenset[str],
    principal: str,
    added: Sequence[AddedApprovers] = (),
) -> RefsToResolve:
    """The minimum directory reads that `check_eligibility` needs for this principal.

    Nothing when the principal is in `approversList`: the list wins the precedence, so no
    membership could change the record. Unadvertised kinds are never asked for. The refs escalation
    steps added (`added`) come after the interrupt's own.
    """
    _check_ref_kinds(ref_kinds)
    if principal in (fields.approvers_list or ()):
        return RefsToResolve()
    every = (fields, *(step.fields for step in added))
    groups = (
        _unique(ref for f in every for ref in f.approver_group_refs or ()) if "group" in ref_kinds else ()
    )
    roles = _unique(ref for f in every for ref in f.approver_role_refs or ()) if "role" in ref_kinds else ()
    return RefsToResolve(groups=groups, roles=roles)


def check_eligibility(
    fields: ApproverFields,
    *,
    ref_kinds: frozenset[str],
    override_principals: frozenset[str],
    principal: str,
    memberships: Memberships,
    now: datetime,
    added: Sequence[AddedApprovers] = (),
) -> EligibilityRecord:
    """Decide whether `principal` may vote; raise `ForbiddenError` when not.

    Precedence of `matched_by`: the list, then group refs in order, then role refs in order, then the
    approvers escalation steps added (`added`, in step order: `escalation:<step>`), then override.
    `open` only when no field of the interrupt is present (after ignoring unadvertised kinds) and
    the principal is not an override principal; a present but empty field lets nobody in.
    """
    _check_ref_kinds(ref_kinds)
    if not principal:
        raise ValueError("principal must be a non-empty string")
    matched_by = _match(fields, ref_kinds, principal, memberships) or next(
        (step.matched_by for step in added if _match(step.fields, ref_kinds, principal, memberships)), None
    )
    if matched_by is None:
        matched_by = _fallback(fields, ref_kinds, override_principals, principal)
    if matched_by is None:
        raise ForbiddenError(NOT_ELIGIBLE_DETAIL)
    return EligibilityRecord(principal=principal, matched_by=matched_by, resolved_at=rfc3339(now))


def notification_recipients(
    audience: Iterable[str] | None,
    approvers_list: Iterable[str],
    group_members: Mapping[str, Iterable[str]],
    role_holders: Mapping[str, Iterable[str]],
    ref_kinds: frozenset[str],
) -> tuple[str, ...]:
    """Who to notify: `audience` when given, else the union of the eligibility refs.

    `audience` is a hint, never eligibility. An empty audience counts as omitted. The union keeps
    first-seen order: list principals, then group members (in mapping order), then role holders;
    unadvertised kinds contribute nobody.
    """
    _check_ref_kinds(ref_kinds)
    given = tuple(audience) if audience is not None else ()
    if given:
        return _unique(given)
    union: list[str] = list(approvers_list)
    if "group" in ref_kinds:
        for members in group_members.values():
            union.extend(members)
    if "role" in ref_kinds:
        for holders in role_holders.values():
            union.extend(holders)
    return _unique(union)


def rfc3339(moment: datetime) -> str:
    """`moment` in UTC, RFC 3339 with milliseconds and `Z`; naive datetimes are refused."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("now must be timezone-aware")
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _match(
    fields: ApproverFields, ref_kinds: frozenset[str], principal: str, memberships: Memberships
) -> str | None:
    """What in `fields` lets the principal in: `list`, `group:<ref>` or `role:<ref>`."""
    group_refs = (fields.approver_group_refs or ()) if "group" in ref_kinds else ()
    role_refs = (fields.approver_role_refs or ()) if "role" in ref_kinds else ()
    if principal in (fields.approvers_list or ()):
        return "list"
    for ref in group_refs:
        if ref in memberships.groups:
            return f"group:{ref}"
    for ref in role_refs:
        if ref in memberships.roles:
            return f"role:{ref}"
    return None


def _fallback(
    fields: ApproverFields, ref_kinds: frozenset[str], override_principals: frozenset[str], principal: str
) -> str | None:
    if principal in override_principals:
        return "override"
    if not fields.binds(ref_kinds):
        return "open"
    return None


def _check_ref_kinds(ref_kinds: frozenset[str]) -> None:
    unknown = ref_kinds - REF_KINDS
    if unknown:
        raise ValueError(f"unknown ref kinds: {sorted(unknown)}")


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
