"""Separation of duties: the requester of an approval does not decide it (docs/approvals.md).

`data.requestedBy` names the requester. By default they cannot vote on their own approval, however
they are eligible: 403 self_approval_refused. The interrupt may allow it (`allowSelfApproval: true`)
for a requester eligible by the list, a group, a role or an escalation step; never for one who is
eligible only as an override principal (an override is the tenant's, not the interrupt's, to relax).
The tenant may allow it (its directory setting `allowSelfApproval`, TenantSettings): then for every
approval of the tenant, override principals included. A delegate deciding for the requester
(`delegate-of:<requester>`) takes the requester's seat and is refused the same way, always (fails
closed): neither the interrupt nor the tenant relaxes that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from waitgate.approval.delegation import seat_of
from waitgate.approval.eligibility import EligibilityRecord
from waitgate.errors import SelfApprovalRefusedError

SELF_APPROVAL_DETAIL: Final = "The requester of this approval cannot decide it."
ALLOW_SELF_APPROVAL: Final = "allowSelfApproval"  # the setting's name, in the payload and the directory


@dataclass(frozen=True)
class TenantSettings:
    """A tenant's own rules, kept in its directory (each change an event of its directory log)."""

    allow_self_approval: bool = False


def is_own_request(data: Mapping[str, Any], eligibility: EligibilityRecord) -> bool:
    """Whether the vote would take the requester's seat (theirs, or a delegate's for them)."""
    requester = data.get("requestedBy")
    return requester is not None and seat_of(eligibility.principal, eligibility.matched_by) == requester


def check_not_own_request(
    data: Mapping[str, Any], eligibility: EligibilityRecord, tenant: TenantSettings | None = None
) -> None:
    """Raise SelfApprovalRefusedError when the eligible voter is the approval's requester and
    neither the tenant nor the interrupt allows it (`tenant`: None when the voter is not the
    requester, so the settings need not be read)."""
    if not is_own_request(data, eligibility):
        return
    in_person = seat_of(eligibility.principal, eligibility.matched_by) == eligibility.principal
    by_tenant = tenant is not None and tenant.allow_self_approval
    by_interrupt = data.get(ALLOW_SELF_APPROVAL) is True and eligibility.matched_by != "override"
    if not (in_person and (by_tenant or by_interrupt)):
        raise SelfApprovalRefusedError(SELF_APPROVAL_DETAIL)
