"""Who may answer an approval: the interrupt's fields, the host's configuration and the directory.

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


def eligibility_of(
    record: InterruptRecord,
    principal: str,
    directory: Directory,
    config: ApprovalConfig,
    now: datetime,
) -> EligibilityRecord | None:
    """The caller's eligibility record for an approval (ForbiddenError when not eligible);
    None for the other kinds, which have no approver fields."""
    if record.kind != "approval":
        return None
    refs = refs_to_read(record, principal, config)
    memberships = Memberships()
    if refs.groups or refs.roles:
        memberships = directory.memberships(record.run.tenant_id, principal, refs.groups, refs.roles)
    return eligibility_with(record, principal, memberships, config, now)


def refs_to_read(record: InterruptRecord, principal: str, config: ApprovalConfig) -> RefsToResolve:
    """The groups and roles the directory must be asked about for this principal (none for a kind
    other than approval, or a principal the list names)."""
    if record.kind != "approval":
        return RefsToResolve()
    # the approvers the escalation steps that fired added (docs/escalation.md)
    return refs_for(approver_fields(record.data), added_approvers(record), principal, config)


def refs_for(
    fields: ApproverFields, added: Sequence[AddedApprovers], principal: str, config: ApprovalConfig
) -> RefsToResolve:
    """`refs_to_read` of an approval's fields and the approvers its fired steps added."""
    return refs_needing_resolution(fields, ref_kinds=config.ref_kinds, principal=principal, added=added)


def eligibility_with(
    record: InterruptRecord,
    principal: str,
    memberships: Memberships,
    config: ApprovalConfig,
    now: datetime,
) -> EligibilityRecord | None:
    """`eligibility_of` with the principal's memberships already read (at least those `refs_to_read`
    names: more do not change the answer, the rules only look at the interrupt's own refs)."""
    if record.kind != "approval":
        return None
    fields = approver_fields(record.data)
    return eligibility_for(fields, added_approvers(record), principal, memberships, config, now)


def eligibility_for(
    fields: ApproverFields,
    added: Sequence[AddedApprovers],
    principal: str,
    memberships: Memberships,
    config: ApprovalConfig,
    now: datetime,
) -> EligibilityRecord:
    """`eligibility_with` of an approval's fields and added approvers (ForbiddenError when not
    eligible): what a vote meets, and what the inbox lists by (`rules.inbox_items`)."""
    return check_eligibility(
        fields,
        ref_kinds=config.ref_kinds,
        override_principals=config.override_principals,
        principal=principal,
        memberships=memberships,
        now=now,
        added=added,
    )
