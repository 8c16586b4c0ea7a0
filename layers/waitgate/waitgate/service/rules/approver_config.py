"""Who may answer an approval: the interrupt's fields, the host's configuration and the directory;
and, for another kind whose Task named who is asked (`notify`), those people, by the same rules.

Membership is read at decision time, and only for the refs the pure rules say could matter; the
record it yields is stored with the vote and never re-resolved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from waitgate.approval import (
    AddedApprovers,
    ApproverFields,
    EligibilityRecord,
    Memberships,
    QuorumPolicy,
    RefsToResolve,
    check_eligibility,
    refs_needing_resolution,
)
from waitgate.approval.separation_of_duties import check_not_own_request
from waitgate.asked import NOT_ASKED_DETAIL, notify_fields
from waitgate.errors import ForbiddenError
from waitgate.ports import Directory
from waitgate.records import InterruptRecord
from waitgate.service.rules.escalation_steps import added_approvers

ALL_REF_KINDS: frozenset[str] = frozenset({"principal", "group", "role"})


@dataclass(frozen=True)
class ApprovalConfig:
    """The host's approval configuration (template parameters OverridePrincipals and RefKinds)."""

    override_principals: frozenset[str] = frozenset()
    ref_kinds: frozenset[str] = ALL_REF_KINDS


class NoDirectory:
    """A host without a directory: nobody is in any group or holds any role (fails closed)."""

    def memberships(
        self, tenant_id: str, principal: str, groups: Sequence[str], roles: Sequence[str]
    ) -> Memberships:
        return Memberships()

    def members(self, tenant_id: str, kind: Literal["group", "role"], ref: str) -> tuple[str, ...]:
        return ()


def approver_fields(data: dict[str, Any]) -> ApproverFields:
    """The payload's fields; an absent one is None, a present one binds even when empty."""
    return ApproverFields.of(data)


def quorum_policy(data: dict[str, Any], config: ApprovalConfig) -> QuorumPolicy:
    return QuorumPolicy.of(data, config.override_principals)


def answerer_fields(record: InterruptRecord) -> ApproverFields | None:
    """Who may answer: an approval's own fields; for another kind, the people its Task's `notify`
    names (waitgate.asked, always binding); None: anyone the surface lets resolve."""
    if record.kind == "approval":
        return approver_fields(record.data)
    return notify_fields(record.notify)


def eligibility_of(
    record: InterruptRecord,
    principal: str,
    directory: Directory,
    config: ApprovalConfig,
    now: datetime,
) -> EligibilityRecord | None:
    """The caller's eligibility record for an approval (ForbiddenError when not eligible); None for
    the other kinds, after the same check when their Task named who is asked (fails closed)."""
    fields = answerer_fields(record)
    if fields is None:
        return None
    added = added_approvers(record)  # the approvers the escalation steps that fired added
    refs = refs_for(fields, added, principal, config)
    memberships = Memberships()
    if refs.groups or refs.roles:
        memberships = directory.memberships(record.run.tenant_id, principal, refs.groups, refs.roles)
    if record.kind == "approval":
        eligibility = eligibility_for(fields, added, principal, memberships, config, now)
        check_not_own_request(record.data, eligibility)  # after eligibility: 403 forbidden first
        return eligibility
    try:
        eligibility_for(fields, added, principal, memberships, config, now)
    except ForbiddenError:
        raise ForbiddenError(NOT_ASKED_DETAIL) from None
    return None


def refs_for(
    fields: ApproverFields, added: Sequence[AddedApprovers], principal: str, config: ApprovalConfig
) -> RefsToResolve:
    """The groups and roles the directory must be asked about for this principal (none for one the
    list names)."""
    return refs_needing_resolution(fields, ref_kinds=config.ref_kinds, principal=principal, added=added)


def eligibility_for(
    fields: ApproverFields,
    added: Sequence[AddedApprovers],
    principal: str,
    memberships: Memberships,
    config: ApprovalConfig,
    now: datetime,
) -> EligibilityRecord:
    """Eligibility by the given fields and added approvers (ForbiddenError when not eligible): what a
    vote (or another kind's answer, by its `notify`) meets, and what the inbox lists by
    (`rules.inbox_items`)."""
    return check_eligibility(
        fields,
        ref_kinds=config.ref_kinds,
        override_principals=config.override_principals,
        principal=principal,
        memberships=memberships,
        now=now,
        added=added,
    )
