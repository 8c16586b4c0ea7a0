"""What the inbox says of one interrupt, and who may act on it now: the very rules a vote meets.

An interrupt is in a caller's inbox when a resolve by that caller would not be refused for who they
are or for when it is: pending, its deadline not passed (`run.answerable`), and, for an approval,
eligible by `approval.check_eligibility` with the directory's memberships read at this moment
(`approval.approver_config`, the same functions the resolve path calls). It fails closed: not eligible,
not listed; a directory that cannot be read fails the page (503), it never lists unchecked items.
Kinds other than approval have no approver fields: anyone of the tenant the run surface lets resolve
may answer them, so they are listed for everyone (`matchedBy: "open"`), unless their Task named who
is asked (`notify`): then they are listed for those people alone, by the same rules (`asked`). The
rules read a `PendingEntry` (what the pending index holds of an interrupt, `waitgate.run.inbox_summary`):
an approval's entry holds its terms whole, or the store read its node item for them. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from waitgate.approval import Memberships, RefsToResolve
from waitgate.approval.approver_config import ApprovalConfig, eligibility_for, refs_for
from waitgate.approval.delegation import delegate_match
from waitgate.errors import ForbiddenError
from waitgate.run.clock import parse_rfc3339
from waitgate.run.inbox_records import ApprovalTerms, PendingEntry
from waitgate.run.notices import interrupt_title
from waitgate.run.records import DecisionReceipt, InterruptRecord, JSONObject

OPEN = "open"  # a kind without approver fields: anyone the surface lets resolve


def still_answerable(entry: PendingEntry, now: datetime) -> bool:
    """Pending and before its deadline (past it, a resolve is refused: `409 ... expired`)."""
    if entry.status != "pending":
        return False
    return entry.deadline is None or now < parse_rfc3339(entry.deadline)


def refs_of_page(entries: Iterable[PendingEntry], principal: str, config: ApprovalConfig) -> RefsToResolve:
    """Every group and role the page's approvals name for this principal: one directory read."""
    groups: dict[str, None] = {}
    roles: dict[str, None] = {}
    for entry in entries:
        terms = entry.summary.approval or entry.summary.asked
        if terms is None:
            continue
        refs = refs_for(terms.fields, terms.added, principal, config)
        groups.update(dict.fromkeys(refs.groups))
        roles.update(dict.fromkeys(refs.roles))
    return RefsToResolve(groups=tuple(groups), roles=tuple(roles))


def matched_by(
    entry: PendingEntry,
    principal: str,
    memberships: Memberships,
    config: ApprovalConfig,
    now: datetime,
) -> str | None:
    """Why `principal` may act on `entry` now (`list`, `group:<ref>`, ..., `open`), or None."""
    if not still_answerable(entry, now):
        return None
    if entry.kind != "approval" and entry.summary.asked is None:
        return OPEN
    terms = entry.summary.approval or entry.summary.asked
    if terms is None:  # an approval without its terms is nobody's (PendingEntry never holds one)
        return None
    try:
        eligibility = eligibility_for(terms.fields, terms.added, principal, memberships, config, now)
    except ForbiddenError:
        return None
    return eligibility.matched_by


def delegate_match_of(
    entry: PendingEntry, delegator: str, memberships: Memberships, config: ApprovalConfig, now: datetime
) -> str | None:
    """`delegate-of:<delegator>` when the delegator may decide the approval by its own fields (never by
    an override or an open approval: waitgate.service._eligibility says the same at the vote), else None."""
    matched = matched_by(entry, delegator, memberships, config, now)
    if matched is None or matched in {OPEN, "override"}:
        return None
    return delegate_match(delegator)


def title(kind: str, data: JSONObject, node_id: str) -> str:
    """What is asked, in the interrupt's own words; else its kind and step."""
    return titled(interrupt_title(data), kind, node_id)


def titled(text: str, kind: str, node_id: str) -> str:
    return text or f"{kind} at step {node_id}"


def quorum_progress(terms: ApprovalTerms) -> JSONObject:
    """How far an approval's tally got: `{approvals, requiredApprovals, rejections, rejectionsNeeded}`."""
    actions = [vote.action for vote in terms.votes]
    return {
        "approvals": sum(1 for action in actions if action in {"accept", "edit-accept"}),
        "requiredApprovals": terms.quorum.required_approvals,
        "rejections": sum(1 for action in actions if action == "reject"),
        "rejectionsNeeded": terms.quorum.rejections_needed,
    }


def vote_summary(vote: JSONObject) -> JSONObject:
    """A vote as the inbox shows it: its action, when, and its comment (never the edited artifact)."""
    summary = {"action": vote.get("action"), "decidedAt": vote.get("decidedAt")}
    if isinstance(vote.get("feedback"), str):
        summary["feedback"] = vote["feedback"]
    return summary


def own_vote(terms: ApprovalTerms, principal: str) -> JSONObject | None:
    vote = next((v for v in terms.votes if v.principal == principal), None)
    if vote is None:
        return None
    mine: JSONObject = {"action": vote.action, "decidedAt": vote.decided_at}
    if vote.feedback is not None:
        mine["feedback"] = vote.feedback
    return mine


def pending_item(entry: PendingEntry, principal: str, matched: str | None) -> JSONObject:
    """One pending interrupt as `GET /interrupts?status=pending` lists it."""
    item: JSONObject = {
        "runId": entry.run.run_id,
        "nodeId": entry.node_id,
        "interruptId": entry.interrupt_id,
        "kind": entry.kind,
        "title": titled(entry.summary.title, entry.kind, entry.node_id),
        "status": "pending",
        "requestedAt": entry.requested_at,
    }
    if entry.deadline is not None:
        item["deadline"] = entry.deadline
    if entry.summary.action is not None:
        item["actionSummary"] = entry.summary.action
    terms = entry.summary.approval
    if terms is not None:
        item["progress"] = quorum_progress(terms)
        mine = own_vote(terms, principal)
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
