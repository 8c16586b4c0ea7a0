"""What the inbox says of one interrupt, and who may act on it now: the very rules a vote meets.

An interrupt is in a caller's inbox when a resolve by that caller would not be refused for who they
are or for when it is: pending, its deadline not passed (`rules.answerable`), and, for an approval,
eligible by `approval.check_eligibility` with the directory's memberships read at this moment
(`rules.approver_config`, the same functions the resolve path calls). It fails closed: not eligible,
not listed; a directory that cannot be read fails the page (503), it never lists unchecked items.
Kinds other than approval have no approver fields: anyone of the tenant the run surface lets resolve
may answer them, so they are listed for everyone (`matchedBy: "open"`). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from waitgate.approval import Memberships, RefsToResolve
from waitgate.clock import parse_rfc3339
from waitgate.errors import ForbiddenError
from waitgate.notices import interrupt_title
from waitgate.records import DecisionReceipt, InterruptRecord, JSONObject
from waitgate.service.rules.approver_config import (
    ApprovalConfig,
    eligibility_with,
    quorum_policy,
    refs_to_read,
)

OPEN = "open"  # a kind without approver fields: anyone the surface lets resolve


def still_answerable(record: InterruptRecord, now: datetime) -> bool:
    """Pending and before its deadline (past it, a resolve is refused: `409 ... expired`)."""
    if record.status != "pending":
        return False
    return record.deadline is None or now < parse_rfc3339(record.deadline)


def refs_of_page(records: Iterable[InterruptRecord], principal: str, config: ApprovalConfig) -> RefsToResolve:
    """Every group and role the page's approvals name for this principal: one directory read."""
    groups: dict[str, None] = {}
    roles: dict[str, None] = {}
    for record in records:
        refs = refs_to_read(record, principal, config)
        groups.update(dict.fromkeys(refs.groups))
        roles.update(dict.fromkeys(refs.roles))
    return RefsToResolve(groups=tuple(groups), roles=tuple(roles))


def matched_by(
    record: InterruptRecord,
    principal: str,
    memberships: Memberships,
    config: ApprovalConfig,
    now: datetime,
) -> str | None:
    """Why `principal` may act on `record` now (`list`, `group:<ref>`, ..., `open`), or None."""
    if not still_answerable(record, now):
        return None
    try:
        eligibility = eligibility_with(record, principal, memberships, config, now)
    except ForbiddenError:
        return None
    return OPEN if eligibility is None else eligibility.matched_by


def title(kind: str, data: JSONObject, node_id: str) -> str:
    """What is asked, in the interrupt's own words; else its kind and step."""
    return interrupt_title(data) or f"{kind} at step {node_id}"


def quorum_progress(record: InterruptRecord, config: ApprovalConfig) -> JSONObject:
    """How far an approval's tally got: `{approvals, requiredApprovals, rejections, rejectionsNeeded}`."""
    policy = quorum_policy(record.data, config)
    actions = [vote.get("action") for vote in record.votes]
    return {
        "approvals": sum(1 for action in actions if action in {"accept", "edit-accept"}),
        "requiredApprovals": policy.required_approvals,
        "rejections": sum(1 for action in actions if action == "reject"),
        "rejectionsNeeded": policy.rejections_needed,
    }


def vote_summary(vote: JSONObject) -> JSONObject:
    """A vote as the inbox shows it: its action, when, and its comment (never the edited artifact)."""
    summary = {"action": vote.get("action"), "decidedAt": vote.get("decidedAt")}
    if isinstance(vote.get("feedback"), str):
        summary["feedback"] = vote["feedback"]
    return summary


def own_vote(record: InterruptRecord, principal: str) -> JSONObject | None:
    vote = next((v for v in record.votes if v.get("principal") == principal), None)
    return vote_summary(vote) if vote is not None else None


def pending_item(
    record: InterruptRecord, principal: str, matched: str | None, config: ApprovalConfig
) -> JSONObject:
    """One pending interrupt as `GET /interrupts?status=pending` lists it."""
    item: JSONObject = {
        "runId": record.run.run_id,
        "nodeId": record.node_id,
        "interruptId": record.interrupt_id,
        "kind": record.kind,
        "title": title(record.kind, record.data, record.node_id),
        "status": "pending",
        "requestedAt": record.requested_at,
    }
    if record.deadline is not None:
        item["deadline"] = record.deadline
    if record.kind == "approval":
        item["progress"] = quorum_progress(record, config)
        mine = own_vote(record, principal)
        if mine is not None:
            item["myVote"] = mine
    if matched is not None:
        item["matchedBy"] = matched
    return item


def resolved_item(receipt: DecisionReceipt) -> JSONObject:
    """One receipt as `GET /interrupts?status=resolved&decidedBy=me` lists it."""
    item: JSONObject = {
        "runId": receipt.run.run_id,
        "nodeId": receipt.node_id,
        "interruptId": receipt.interrupt_id,
        "kind": receipt.kind,
        "title": receipt.title,
        "status": "resolved",
        "requestedAt": receipt.requested_at,
        "resolvedAt": receipt.resolved_at,
    }
    if receipt.action is not None:
        item["action"] = receipt.action
    if receipt.vote is not None:
        item["myVote"] = receipt.vote
    return item


def decision_receipts(
    record: InterruptRecord, decider: str, resume_value: Any, now: str
) -> tuple[DecisionReceipt, ...]:
    """Who decided this resolution: every voter of an approval's deciding tally; for the other kinds,
    the caller who answered. A signed link without a recipient (`token:<jti>`) decides for nobody."""
    votes: Sequence[JSONObject] = record.votes if record.kind == "approval" else ()
    principals = [str(v.get("principal")) for v in votes] if votes else [decider]
    action = resume_value.get("action") if isinstance(resume_value, dict) else None
    by_principal = {str(v.get("principal")): v for v in votes}
    return tuple(
        DecisionReceipt(
            principal=principal,
            run=record.run,
            node_id=record.node_id,
            interrupt_id=record.interrupt_id,
            kind=record.kind,
            title=title(record.kind, record.data, record.node_id),
            requested_at=record.requested_at,
            resolved_at=now,
            action=action if isinstance(action, str) else None,
            vote=vote_summary(by_principal[principal]) if principal in by_principal else None,
        )
        for principal in dict.fromkeys(principals)
        if principal and not principal.startswith("token:")
    )
