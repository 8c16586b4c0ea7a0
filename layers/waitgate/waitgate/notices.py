"""A notice that an interrupt waits for someone: one per recipient, with that recipient's own link.

Pure text rules for the channels (see docs/notifications.md): an e-mail subject (SNS: ASCII, no line
breaks, under 100 characters), a plain-text body, and a JSON document for programs.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from waitgate.records import RunRef

SUBJECT_LIMIT = 99  # SNS: "less than 100 characters"
NOTICE_KIND = "interrupt.requested"
REMINDER_KIND = "interrupt.reminded"  # an escalation step reminds those who have not answered
ESCALATION_KIND = "interrupt.escalated"  # an escalation step tells the approvers it added
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

    @property
    def subject(self) -> str:
        """`Approval needed: <title>` (`Reminder: ...` for a reminder): ASCII, one line, ≤ 99 characters."""
        ask = _ASKS.get(self.kind, "Input needed")
        about = self.title or f"run {self.run.run_id}, step {self.node_id}"
        reminder = "Reminder: " if self.notice == REMINDER_KIND else ""
        return _one_ascii_line(f"{reminder}{ask}: {about}", SUBJECT_LIMIT)

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
        }


def _one_ascii_line(text: str, limit: int) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    single = " ".join(_CONTROL.sub(" ", folded).split())
    return single if len(single) <= limit else single[: limit - 3].rstrip() + "..."
