"""Separation of duties: the requester of an approval does not decide it (docs/approvals.md).

`data.requestedBy` names the requester. By default they cannot vote on their own approval, however
they are eligible: 403 self_approval_refused. The interrupt may allow it (`allowSelfApproval: true`)
for a requester eligible by the list, a group, a role or an escalation step; never for one who is
eligible only as an override principal (an override is the tenant's, not the interrupt's, to relax).
A delegate deciding for the requester (`delegate-of:<requester>`) takes the requester's seat and is
refused the same way, always (fails closed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from waitgate.approval.delegation import seat_of
from waitgate.approval.eligibility import EligibilityRecord
from waitgate.errors import SelfApprovalRefusedError

SELF_APPROVAL_DETAIL: Final = "The requester of this approval cannot decide it."


def check_not_own_request(data: Mapping[str, Any], eligibility: EligibilityRecord) -> None:
    """Raise SelfApprovalRefusedError when the eligible voter is the approval's requester."""
    seat = seat_of(eligibility.principal, eligibility.matched_by)
    if data.get("requestedBy") != seat:
        return
    allowed = data.get("allowSelfApproval") is True and eligibility.matched_by != "override"
    allowed = allowed and seat == eligibility.principal
    if not allowed:
        raise SelfApprovalRefusedError(SELF_APPROVAL_DETAIL)
