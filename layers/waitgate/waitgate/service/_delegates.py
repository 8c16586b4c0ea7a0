"""What a caller decides as someone's delegate, for the inbox (docs/approvals.md, "Delegation"): the
delegations naming them that hold now, and the delegators' eligibility on each approval."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from waitgate.approval import Memberships
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.approval.delegation import holding
from waitgate.ports import Directory
from waitgate.run import inbox_items
from waitgate.run.identity import Caller
from waitgate.run.inbox_records import PendingEntry


def delegated_matches(
    entries: Sequence[PendingEntry],
    caller: Caller,
    directory: Directory,
    approval: ApprovalConfig,
    now: datetime,
) -> dict[str, str]:
    """`delegate-of:<delegator>` by interrupt id, for the approvals among `entries` the caller decides
    for someone; the directory is asked only when there are approvals (one Query, then the
    memberships of each delegator who holds, for the refs that could matter)."""
    approvals = [entry for entry in entries if entry.kind == "approval"]
    if not approvals:
        return {}
    found: dict[str, str] = {}
    for delegation in holding(directory.delegations_to(caller.tenant_id, caller.principal), now, "approval"):
        refs = inbox_items.refs_of_page(approvals, delegation.delegator, approval)
        memberships = Memberships()
        if refs.groups or refs.roles:
            memberships = directory.memberships(
                caller.tenant_id, delegation.delegator, refs.groups, refs.roles
            )
        for entry in approvals:
            match = inbox_items.delegate_match_of(entry, delegation.delegator, memberships, approval, now)
            if match is not None:
                found.setdefault(entry.interrupt_id, match)
    return found
