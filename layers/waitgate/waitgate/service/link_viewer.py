"""Whom a signed link's recipient decides for, said on its page (docs/approvals.md, "Delegation"):
the delegator whose seat their vote would take when they decide an approval as someone's delegate.
Reads only (the directory, as a vote would); anything that would refuse the vote says nothing here:
the vote itself says why."""

from __future__ import annotations

from datetime import datetime

from waitgate.approval.approver_config import ApprovalConfig
from waitgate.approval.delegation import DELEGATE_OF
from waitgate.errors import WaitgateError
from waitgate.ports import Directory
from waitgate.run.records import InterruptRecord
from waitgate.service._eligibility import eligibility_of


def decides_for(
    record: InterruptRecord,
    principal: str | None,
    directory: Directory,
    config: ApprovalConfig,
    now: datetime,
) -> str | None:
    """The delegator `principal` decides this approval for; None when they decide as themselves,
    may not decide it, or the link names nobody."""
    if record.kind != "approval" or principal is None or principal.startswith("token:"):
        return None
    try:
        eligibility = eligibility_of(record, principal, directory, config, now)
    except WaitgateError:
        return None
    matched = eligibility.matched_by if eligibility is not None else ""
    return matched.removeprefix(DELEGATE_OF) if matched.startswith(DELEGATE_OF) else None
