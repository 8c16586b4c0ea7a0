"""Who may answer, with the directory asked (the rules are waitgate.approval.approver_config): the
memberships read at decision time, only for the refs the pure rules say could matter; and, for an
approval the caller may not decide themselves, the delegations naming them (docs/approvals.md,
"Delegation")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from waitgate.approval import AddedApprovers, ApproverFields, EligibilityRecord, Memberships
from waitgate.approval.approver_config import ApprovalConfig, answerer_fields, eligibility_for, refs_for
from waitgate.approval.delegation import (
    SEAT_TAKEN_DETAIL,
    check_seat_free,
    delegate_match,
    holding,
    taken_seats,
)
from waitgate.approval.eligibility import NOT_ELIGIBLE_DETAIL
from waitgate.approval.separation_of_duties import check_not_own_request, is_own_request
from waitgate.errors import AlreadyVotedError, ForbiddenError
from waitgate.escalation.escalation_steps import added_approvers
from waitgate.ports import Directory
from waitgate.run.asked import NOT_ASKED_DETAIL
from waitgate.run.records import InterruptRecord

NOT_DELEGABLE: frozenset[str] = frozenset({"open", "override"})


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
    if record.kind == "approval":
        try:
            eligibility = _own(record, fields, added, principal, directory, config, now)
        except ForbiddenError:
            eligibility = _as_delegate(record, fields, added, principal, directory, config, now)
        check_seat_free(record.votes, principal, eligibility.matched_by)
        # after eligibility: 403 forbidden first; the tenant's settings read only for the requester
        own = is_own_request(record.data, eligibility)
        tenant = directory.tenant_settings(record.run.tenant_id) if own else None
        check_not_own_request(record.data, eligibility, tenant)
        return eligibility
    try:
        _own(record, fields, added, principal, directory, config, now)
    except ForbiddenError:
        raise ForbiddenError(NOT_ASKED_DETAIL) from None
    return None


def _own(
    record: InterruptRecord,
    fields: ApproverFields,
    added: Sequence[AddedApprovers],
    principal: str,
    directory: Directory,
    config: ApprovalConfig,
    now: datetime,
) -> EligibilityRecord:
    refs = refs_for(fields, added, principal, config)
    memberships = Memberships()
    if refs.groups or refs.roles:
        memberships = directory.memberships(record.run.tenant_id, principal, refs.groups, refs.roles)
    return eligibility_for(fields, added, principal, memberships, config, now)


def _as_delegate(
    record: InterruptRecord,
    fields: ApproverFields,
    added: Sequence[AddedApprovers],
    principal: str,
    directory: Directory,
    config: ApprovalConfig,
    now: datetime,
) -> EligibilityRecord:
    """The caller decides for the first delegator who may decide this approval and whose seat is
    free; ForbiddenError when no holding delegation lets them in (the delegator's own override or an
    open approval is not delegated), AlreadyVotedError when every such seat has voted."""
    seats = taken_seats(record.votes)
    taken = False
    for delegation in holding(directory.delegations_to(record.run.tenant_id, principal), now, record.kind):
        try:
            theirs = _own(record, fields, added, delegation.delegator, directory, config, now)
        except ForbiddenError:
            continue
        if theirs.matched_by in NOT_DELEGABLE:
            continue
        if delegation.delegator in seats:
            taken = True
            continue
        return EligibilityRecord(principal, delegate_match(delegation.delegator), theirs.resolved_at)
    if taken:
        raise AlreadyVotedError(SEAT_TAKEN_DETAIL)
    raise ForbiddenError(NOT_ELIGIBLE_DETAIL)
