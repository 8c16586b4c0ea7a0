"""The pending index's summary of an interrupt: what the inbox lists and checks eligibility by, in one
bounded attribute, so that the index never copies a payload (docs/inbox.md, "What the index holds").

`summary_of(record)` is the title, cut to `MAX_TITLE_BYTES` of UTF-8 (display text: it ends in "…"
when cut), and for an approval its action in one line when it is action-bound (`data.action`, cut to
`MAX_ACTION_BYTES`, waitgate.channels.action_lines) and its terms: the approver fields, the
approvers its fired escalation steps added, its quorum fields and its votes (each comment cut to
`MAX_FEEDBACK_BYTES`). `encode` writes it as compact JSON of at most `MAX_SUMMARY_BYTES`. Terms are
never cut: when they do not fit whole (an approval that names more approvers than fit), the summary
carries none and says `readItem`, and the inbox reads that one node item to check eligibility on the
interrupt's own fields.

`decode` takes only a summary it can trust whole: anything else (malformed, another version,
`readItem`, an approval without its terms, a member it does not know) is None, and the reader reads
the node item. So eligibility fails closed: no path lists an approval by terms it does not hold whole.
Pure.
"""

from __future__ import annotations

import json
from typing import Any

from waitgate.approval import AddedApprovers, ApproverFields, QuorumPolicy
from waitgate.channels.action_lines import action_line
from waitgate.run.asked import notify_fields
from waitgate.run.inbox_records import ApprovalTerms, InboxSummary, ListedVote, PendingEntry
from waitgate.run.notices import interrupt_title
from waitgate.run.records import InterruptRecord, JSONObject
from waitgate.run.size_limits import KB

VERSION = 1
MAX_SUMMARY_BYTES = 4 * KB  # the summary as stored: with the keys, an index item stays under ~4.5 KB
MAX_TITLE_BYTES = 512
MAX_ACTION_BYTES = 256
MAX_FEEDBACK_BYTES = 256
ELLIPSIS = "…"
_FIELDS = ("approversList", "approverGroupRefs", "approverRoleRefs")
_QUORUM = ("requiredApprovals", "rejectionPolicy", "overrideBypassesQuorum")
_TERMS = frozenset({*_FIELDS, *_QUORUM, "added", "votes"})
_VOTE = frozenset({"principal", "action", "decidedAt", "feedback"})


def cut(text: str, limit: int) -> str:
    """`text` whole if its UTF-8 fits `limit` bytes; else its first characters that fit, with "…"."""
    encoded = text.encode("utf-8", "surrogatepass")
    if len(encoded) <= limit:
        return text
    room = limit - len(ELLIPSIS.encode("utf-8"))
    return encoded[:room].decode("utf-8", "ignore") + ELLIPSIS


def summary_of(record: InterruptRecord) -> InboxSummary:
    title = cut(interrupt_title(record.data), MAX_TITLE_BYTES)
    if record.kind == "approval":
        action = action_line(record.data)
        return InboxSummary(
            title, _terms_of(record), action=cut(action, MAX_ACTION_BYTES) if action else None
        )
    fields = notify_fields(record.notify)
    return InboxSummary(title, asked=None if fields is None else ApprovalTerms(fields, _added_of(record)))


def entry_of(record: InterruptRecord) -> PendingEntry:
    """A whole node item's interrupt as the inbox lists it: the same entry its summary gives."""
    return PendingEntry(
        run=record.run,
        node_id=record.node_id,
        interrupt_id=record.interrupt_id,
        kind=record.kind,
        requested_at=record.requested_at,
        status=record.status,
        deadline=record.deadline,
        summary=summary_of(record),
    )


def encode(summary: InboxSummary) -> str:
    """The summary as stored: at most MAX_SUMMARY_BYTES, its terms whole or not at all (`readItem`)."""
    body: JSONObject = {"v": VERSION, "title": summary.title}
    if summary.approval is not None:
        body["approval"] = _terms_json(summary.approval)
    if summary.action is not None:
        body["action"] = summary.action
    if summary.asked is not None:
        body["asked"] = _asked_json(summary.asked)
    text = _compact(body)
    if len(text.encode("utf-8", "surrogatepass")) <= MAX_SUMMARY_BYTES:
        return text
    return _compact({"v": VERSION, "title": summary.title, "readItem": True})


def decode(text: str | None, kind: str) -> InboxSummary | None:
    """The stored summary of an interrupt of `kind`, or None: read the node item instead."""
    try:
        body = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    if not isinstance(body, dict) or set(body) - {"v", "title", "approval", "asked", "action", "readItem"}:
        return None
    if body.get("v") != VERSION or not isinstance(body.get("title"), str) or "readItem" in body:
        return None
    if kind != "approval":
        if "approval" in body or "action" in body:
            return None
        if "asked" not in body:
            return InboxSummary(body["title"])
        asked = _asked(body["asked"])
        return None if asked is None else InboxSummary(body["title"], asked=asked)
    if "asked" in body:
        return None
    terms, action = _terms(body.get("approval")), body.get("action")
    if terms is None or not isinstance(action, str | None):
        return None
    return InboxSummary(body["title"], terms, action=action)


def _terms_of(record: InterruptRecord) -> ApprovalTerms:
    votes = tuple(_listed(vote) for vote in record.votes)
    added = _added_of(record)
    return ApprovalTerms(ApproverFields.of(record.data), added, QuorumPolicy.of(record.data), votes)


def _added_of(record: InterruptRecord) -> tuple[AddedApprovers, ...]:
    if record.escalation is None or not record.escalated:
        return ()
    # imported here: listing an interrupt without a fired step (most of them) never loads the rules
    from waitgate.escalation import policy_from_json

    return policy_from_json(record.escalation).added_approvers(record.escalated)


def _listed(vote: JSONObject) -> ListedVote:
    feedback = vote.get("feedback")
    return ListedVote(
        principal=str(vote.get("principal", "")),
        action=_text(vote.get("action")),
        decided_at=_text(vote.get("decidedAt")),
        feedback=cut(feedback, MAX_FEEDBACK_BYTES) if isinstance(feedback, str) else None,
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _compact(body: JSONObject) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def _fields_json(fields: ApproverFields) -> JSONObject:
    values = (fields.approvers_list, fields.approver_group_refs, fields.approver_role_refs)
    return {name: list(value) for name, value in zip(_FIELDS, values, strict=True) if value is not None}


def _terms_json(terms: ApprovalTerms) -> JSONObject:
    body = _fields_json(terms.fields)
    if terms.added:
        body["added"] = [{"step": added.step, **_fields_json(added.fields)} for added in terms.added]
    body.update(
        requiredApprovals=terms.quorum.required_approvals,
        rejectionPolicy=terms.quorum.rejection_policy,
        overrideBypassesQuorum=terms.quorum.override_bypasses_quorum,
    )
    if terms.votes:
        body["votes"] = [_vote_json(vote) for vote in terms.votes]
    return body


def _asked_json(terms: ApprovalTerms) -> JSONObject:
    body = _fields_json(terms.fields)
    if terms.added:
        body["added"] = [{"step": added.step, **_fields_json(added.fields)} for added in terms.added]
    return body


def _asked(raw: Any) -> ApprovalTerms | None:
    """Who a non-approval's Task asked, trusted only whole and binding (its list present)."""
    if not isinstance(raw, dict) or set(raw) - {*_FIELDS, "added"} or "approversList" not in raw:
        return None
    fields, added = _fields(raw), _added(raw.get("added", []))
    return None if fields is None or added is None else ApprovalTerms(fields, added)


def _vote_json(vote: ListedVote) -> JSONObject:
    body: JSONObject = {"principal": vote.principal, "action": vote.action, "decidedAt": vote.decided_at}
    if vote.feedback is not None:
        body["feedback"] = vote.feedback
    return body


def _terms(raw: Any) -> ApprovalTerms | None:
    if not isinstance(raw, dict) or set(raw) - _TERMS:
        return None
    fields, added, votes = _fields(raw), _added(raw.get("added", [])), _votes(raw.get("votes", []))
    required, policy = raw.get("requiredApprovals"), raw.get("rejectionPolicy")
    bypasses = raw.get("overrideBypassesQuorum")
    if fields is None or added is None or votes is None or not isinstance(bypasses, bool):
        return None
    if type(required) is not int or required < 1 or policy not in ("single-veto", "majority"):
        return None
    quorum = QuorumPolicy(required, policy, bypasses)
    return ApprovalTerms(fields, added, quorum, votes)


def _fields(raw: dict[str, Any]) -> ApproverFields | None:
    for name in _FIELDS:
        value = raw.get(name)
        if value is not None and not (isinstance(value, list) and all(_named(ref) for ref in value)):
            return None
    return ApproverFields.of(raw)


def _added(raw: Any) -> tuple[AddedApprovers, ...] | None:
    if not isinstance(raw, list):
        return None
    found = []
    for step in raw:
        if not isinstance(step, dict) or set(step) - {"step", *_FIELDS} or type(step.get("step")) is not int:
            return None
        fields = _fields(step)
        if fields is None or step["step"] < 0:
            return None
        found.append(AddedApprovers(step["step"], fields))
    return tuple(found)


def _votes(raw: Any) -> tuple[ListedVote, ...] | None:
    if not isinstance(raw, list):
        return None
    found = []
    for vote in raw:
        if not isinstance(vote, dict) or set(vote) - _VOTE or not isinstance(vote.get("principal"), str):
            return None
        action, decided_at, feedback = vote.get("action"), vote.get("decidedAt"), vote.get("feedback")
        if not all(value is None or isinstance(value, str) for value in (action, decided_at, feedback)):
            return None
        found.append(ListedVote(vote["principal"], action, decided_at, feedback))
    return tuple(found)


def _named(ref: Any) -> bool:
    return isinstance(ref, str) and bool(ref)
