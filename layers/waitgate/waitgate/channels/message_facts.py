"""What a channel's message says about one interrupt, for one recipient: read from the notice (the
recipient's link and its expiry, the workflow) and from the interrupt as it is now (title, deadline,
actions, quorum progress, the decision once there is one)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from waitgate.approval.quorum import ACCEPTING
from waitgate.channels.action_lines import action_line, change_lines
from waitgate.run.notices import InterruptNotice
from waitgate.run.records import InterruptRecord, InterruptStatus

FORM_ACTIONS = frozenset({"refine", "edit-accept", "ask"})  # need the page: text or JSON to type
BUTTON_ACTIONS = ("accept", "reject")  # one click says it all
ACTION_LABELS = {  # as the human page labels its buttons
    "accept": "Accept",
    "reject": "Reject",
    "refine": "Request changes",
    "edit-accept": "Accept with edits",
    "ask": "Ask a question",
}


@dataclass(frozen=True)
class Progress:
    """An approval's tally so far: who accepted, who rejected, how many accepts it needs."""

    required: int
    accepted_by: tuple[str, ...] = ()
    rejected_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class MessageFacts:
    tenant_id: str
    run_id: str
    node_id: str
    interrupt_id: str
    kind: str
    subject: str  # `Approval needed: <title>`, one ASCII line
    title: str
    description: str
    recipient: str
    link: str  # the recipient's own resolve link: never logged
    link_expires_at: str
    workflow: str
    deadline: str | None
    actions: tuple[str, ...]
    progress: Progress | None
    status: InterruptStatus = "pending"
    decided_action: str | None = None
    decided_by: tuple[str, ...] = ()
    decided_at: str | None = None
    bound_action: str = ""  # an action-bound approval's action, in one line (channels.action_lines)
    changes: tuple[str, ...] = ()  # what it changes, one line per change

    @property
    def button_actions(self) -> tuple[str, ...]:
        return tuple(action for action in BUTTON_ACTIONS if action in self.actions)

    @property
    def form_actions(self) -> tuple[str, ...]:
        return tuple(action for action in self.actions if action in FORM_ACTIONS)


def facts_of(record: InterruptRecord, notice: InterruptNotice) -> MessageFacts:
    data = record.data
    actions = (
        tuple(a for a in data.get("actions", []) if isinstance(a, str)) if record.kind == "approval" else ()
    )
    description = data.get("description") if isinstance(data.get("description"), str) else ""
    decided_action, decided_by = _decision(record)
    return MessageFacts(
        tenant_id=record.run.tenant_id,
        run_id=record.run.run_id,
        node_id=record.node_id,
        interrupt_id=record.interrupt_id,
        kind=record.kind,
        subject=notice.subject,
        title=notice.title or notice.subject,
        description=str(description or ""),
        recipient=notice.recipient,
        link=notice.link,
        link_expires_at=notice.expires_at,
        workflow=notice.workflow,
        deadline=record.deadline,
        actions=actions,
        progress=_progress(record) if record.kind == "approval" else None,
        status=record.status,
        decided_action=decided_action,
        decided_by=decided_by,
        decided_at=record.resolved_at,
        bound_action=action_line(data) if record.kind == "approval" else "",
        changes=change_lines(data) if record.kind == "approval" else (),
    )


def _progress(record: InterruptRecord) -> Progress:
    votes = [vote for vote in record.votes if isinstance(vote, dict)]
    return Progress(
        required=int(record.data.get("requiredApprovals", 1)),
        accepted_by=tuple(str(v.get("principal")) for v in votes if v.get("action") in ACCEPTING),
        rejected_by=tuple(str(v.get("principal")) for v in votes if v.get("action") == "reject"),
    )


def _decision(record: InterruptRecord) -> tuple[str | None, tuple[str, ...]]:
    """The decided action and who decided it (every voter of that side, for a quorum)."""
    value = record.resume_value
    if record.status != "resolved" or not isinstance(value, dict):
        return None, ()
    action = value.get("action")
    if not isinstance(action, str):
        return None, ()
    side = ACCEPTING if action in ACCEPTING else frozenset({action})
    votes = [v for v in value.get("votes", []) if isinstance(v, dict) and v.get("action") in side]
    voters = tuple(dict.fromkeys(str(v.get("principal")) for v in votes))
    decider = value.get("decidedBy")
    return action, voters or ((str(decider),) if isinstance(decider, str) else ())


def _parsed(moment: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(moment.replace("Z", "+00:00")) if moment else None
    except ValueError:
        return None


def shown_time(moment: str | None) -> str:
    """`2026-11-30T10:02:07.123Z` as people read it: `2026-11-30 10:02 UTC`."""
    parsed = _parsed(moment)
    return parsed.strftime("%Y-%m-%d %H:%M UTC") if parsed else (moment or "")


def clock_time(moment: str | None) -> str:
    """Only the time of day: `10:02 UTC` (for "Accepted by alice at 10:02 UTC")."""
    parsed = _parsed(moment)
    return parsed.strftime("%H:%M UTC") if parsed else (moment or "")


def names(principals: tuple[str, ...]) -> str:
    """`alice`, `alice and carol`, `alice, ben and carol`."""
    if len(principals) <= 1:
        return "".join(principals)
    return ", ".join(principals[:-1]) + " and " + principals[-1]


DECIDED_WORDS = {
    "accept": "Accepted",
    "edit-accept": "Accepted with edits",
    "reject": "Rejected",
    "refine": "Changes requested",
}


def outcome_line(facts: MessageFacts) -> str:
    """What became of the interrupt, in one line: "Accepted by alice at 10:02 UTC"."""
    if facts.status == "expired":
        return f"Expired: nobody answered before the deadline ({shown_time(facts.deadline)})."
    if facts.status == "cancelled":
        return "Cancelled: the run ended before anyone answered."
    if facts.status != "resolved":
        return ""
    words = DECIDED_WORDS.get(facts.decided_action or "", "Answered")
    who = f" by {names(facts.decided_by)}" if facts.decided_by else ""
    return f"{words}{who} at {clock_time(facts.decided_at)}"
