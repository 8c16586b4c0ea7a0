"""A notice that an interrupt waits for someone: one per recipient, with that recipient's own link.

Pure text rules for the channels (see docs/notifications.md): an e-mail subject (SNS: ASCII, no line
breaks, under 100 characters), a plain-text body, and a JSON document for programs.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from waitgate.run.records import RunRef

SUBJECT_LIMIT = 99  # SNS: "less than 100 characters"
NOTICE_KIND = "interrupt.requested"
REMINDER_KIND = "interrupt.reminded"  # an escalation step reminds those who have not answered
ESCALATION_KIND = "interrupt.escalated"  # an escalation step tells the approvers it added
FRESH_LINK_KIND = "interrupt.fresh-link"  # a person asked for a fresh link (their expired one's page)
NOTICE_KINDS = frozenset({NOTICE_KIND, REMINDER_KIND, ESCALATION_KIND, FRESH_LINK_KIND})
_PREFIXES = {REMINDER_KIND: "Reminder: ", FRESH_LINK_KIND: "New link: "}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")

_ASKS = {
    "approval": "Approval needed",
    "low-confidence": "Review needed",
    "clarification": "Answer needed",
    "external-event": "Event awaited",
    "custom": "Input needed",
}


@dataclass(frozen=True)
class InterruptNotice:
    run: RunRef
    node_id: str
    interrupt_id: str
    kind: str
    recipient: str
    link: str  # carries a resolve token: never logged
    expires_at: str
    title: str  # what is asked, in the interrupt's own words (may be empty)
    notice: str = NOTICE_KIND  # why this recipient is told now: requested, reminded, escalated
    workflow: str = ""  # the state machine that asked, when known
    channels: tuple[str, ...] = ()  # where the recipient has contact points (email, slack)

    @property
    def notice_id(self) -> str:
        """Which notice this is (a request, each reminder): its link is minted for it alone."""
        return hashlib.sha256(self.link.encode("utf-8")).hexdigest()[:24]

    @property
    def subject(self) -> str:
        """`Approval needed: <title>` (`Reminder: ...` for a reminder, `New link: ...` for a fresh
        link): ASCII, one line, ≤ 99 characters."""
        ask = _ASKS.get(self.kind, "Input needed")
        about = self.title or f"run {self.run.run_id}, step {self.node_id}"
        prefix = _PREFIXES.get(self.notice, "")
        return _one_ascii_line(f"{prefix}{ask}: {about}", SUBJECT_LIMIT)

    @property
    def text(self) -> str:
        """The plain-text body: what, where, the personal link and until when it works."""
        lines = [
            f"Hello {self.recipient},",
            "",
            f"{self.subject}.",
            "",
            f"Run:   {self.run.run_id} (tenant {self.run.tenant_id})",
            f"Step:  {self.node_id}",
            *([f"Workflow: {self.workflow}"] if self.workflow else []),
            f"Kind:  {self.kind}",
            "",
            "Open this personal link to see it and answer (do not forward it):",
            self.link,
            "",
            f"The link works until {self.expires_at} or until someone answers, whichever comes first.",
        ]
        return "\n".join(lines)

    def document(self) -> dict[str, Any]:
        """The JSON body for programs (SQS, Lambda subscribers)."""
        return {
            "kind": self.notice,
            "interruptKind": self.kind,
            "recipient": self.recipient,
            "tenantId": self.run.tenant_id,
            "runId": self.run.run_id,
            "nodeId": self.node_id,
            "interruptId": self.interrupt_id,
            "title": self.title,
            "subject": self.subject,
            "link": self.link,
            "expiresAt": self.expires_at,
            "workflow": self.workflow,
            "channels": list(self.channels),
        }

    @classmethod
    def from_document(cls, document: Any) -> InterruptNotice:
        """The notice a channel deliverer received (`document()` as published); ValueError when it
        is not one."""
        if not isinstance(document, dict) or document.get("kind") not in NOTICE_KINDS:
            raise ValueError("not an interrupt notice")
        text = {name: document.get(name) for name in _DOCUMENT_TEXT}
        if not all(isinstance(value, str) for value in text.values()):
            raise ValueError("an interrupt notice names its run, node, recipient and link as strings")
        channels = document.get("channels")
        return cls(
            run=RunRef(str(text["tenantId"]), str(text["runId"])),
            node_id=str(text["nodeId"]),
            interrupt_id=str(text["interruptId"]),
            kind=str(text["interruptKind"]),
            recipient=str(text["recipient"]),
            link=str(text["link"]),
            expires_at=str(text["expiresAt"]),
            title=str(document.get("title") or ""),
            notice=str(document["kind"]),
            workflow=str(document.get("workflow") or ""),
            channels=tuple(c for c in channels if isinstance(c, str)) if isinstance(channels, list) else (),
        )


_DOCUMENT_TEXT = (
    "tenantId",
    "runId",
    "nodeId",
    "interruptId",
    "interruptKind",
    "recipient",
    "link",
    "expiresAt",
)


def interrupt_title(data: dict[str, Any]) -> str:
    """What is asked, in the interrupt's own words: its title (or prompt, topic, event type, custom
    kind, first question); "" when it has none."""
    for name in ("title", "prompt", "topic", "eventType", "customKind"):
        if isinstance(data.get(name), str):
            return str(data[name])
    questions = data.get("questions")
    if isinstance(questions, list) and questions and isinstance(questions[0], dict):
        return str(questions[0].get("question", ""))
    return ""


def _one_ascii_line(text: str, limit: int) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    single = " ".join(_CONTROL.sub(" ", folded).split())
    return single if len(single) <= limit else single[: limit - 3].rstrip() + "..."
