"""Who may answer, with the directory asked (the rules are waitgate.approval.approver_config): the
memberships read at decision time, only for the refs the pure rules say could matter."""

from __future__ import annotations

from datetime import datetime

from waitgate.approval import EligibilityRecord, Memberships
from waitgate.approval.approver_config import ApprovalConfig, answerer_fields, eligibility_for, refs_for
from waitgate.approval.separation_of_duties import check_not_own_request
from waitgate.errors import ForbiddenError
from waitgate.escalation.escalation_steps import added_approvers
from waitgate.ports import Directory
from waitgate.run.asked import NOT_ASKED_DETAIL
from waitgate.run.records import InterruptRecord


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
