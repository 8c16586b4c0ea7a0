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
from waitgate.approval.delegation import Delegation
from waitgate.approval.separation_of_duties import TenantSettings
from waitgate.run.asked import notify_fields
from waitgate.run.records import InterruptRecord

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

    def delegations_to(self, tenant_id: str, delegate: str) -> tuple[Delegation, ...]:
        return ()

    def tenant_settings(self, tenant_id: str) -> TenantSettings:
        return TenantSettings()


def approver_fields(data: dict[str, Any]) -> ApproverFields:
    """The payload's fields; an absent one is None, a present one binds even when empty."""
    return ApproverFields.of(data)


def quorum_policy(data: dict[str, Any], config: ApprovalConfig) -> QuorumPolicy:
    return QuorumPolicy.of(data, config.override_principals)


def answerer_fields(record: InterruptRecord) -> ApproverFields | None:
    """Who may answer: an approval's own fields; for another kind, the people its Task's `notify`
    names (waitgate.run.asked, always binding); None: anyone the surface lets resolve."""
    if record.kind == "approval":
        return approver_fields(record.data)
    return notify_fields(record.notify)


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
    (`run.inbox_items`)."""
    return check_eligibility(
        fields,
        ref_kinds=config.ref_kinds,
        override_principals=config.override_principals,
        principal=principal,
        memberships=memberships,
        now=now,
        added=added,
    )
