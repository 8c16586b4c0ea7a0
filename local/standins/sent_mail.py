"""The e-mails SES (moto) sent, moved to the stack's inbox, so `waitgate dev-inbox --channel email`
shows each one as its recipient would get it: subject, plain text and HTML.

moto runs in this process and keeps every message SES v2 took (`sent_messages` of its SES backend,
the raw MIME for `Content.Raw`); the pump takes the ones it has not taken yet, as soon as SES sent one
(local.patches.moto_news wakes it) and, in case it missed news, every INTERVAL_SECONDS. The waitgate
headers say whose and which run's message it is; the link is the personal one in the plain-text part.
"""

from __future__ import annotations

import email
import email.policy
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from local.patches import moto_news
from local.standins.pumps import Pump

if TYPE_CHECKING:
    from local.standins.inbox import InboxLog

INTERVAL_SECONDS = 5.0  # between ticks that no e-mail sent asked for
_LINK = re.compile(r"https?://\S+/interrupts/\S+")


def sent_messages(account_id: str, region: str) -> list[Any]:
    from moto.ses.models import ses_backends

    return list(ses_backends[account_id][region].sent_messages)


def inbox_line(message_id: str, raw: str) -> dict[str, Any]:
    parsed = email.message_from_string(raw, policy=email.policy.default)
    text_part = parsed.get_body(preferencelist=("plain",))
    html_part = parsed.get_body(preferencelist=("html",))
    text = text_part.get_content() if text_part is not None else ""
    link = _LINK.search(text)
    return {
        "messageId": f"email:{message_id}",
        "sentAt": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "channel": "email",
        "recipient": str(parsed.get("X-Waitgate-Recipient", "")),
        "kind": str(parsed.get("X-Waitgate-Kind", "")),
        "runId": str(parsed.get("X-Waitgate-Run-Id", "")),
        "nodeId": str(parsed.get("X-Waitgate-Node-Id", "")),
        "subject": str(parsed.get("Subject", "")),
        "link": link.group(0) if link else "",
        "to": str(parsed.get("To", "")),
        "text": text,
        "html": html_part.get_content() if html_part is not None else "",
    }


class SentMailPump:
    def __init__(self, account_id: str, region: str, append: Any) -> None:
        self._account_id, self._region, self._append = account_id, region, append
        self._taken = 0

    def tick(self) -> None:
        messages = sent_messages(self._account_id, self._region)
        fresh, self._taken = messages[self._taken :], len(messages)
        lines = [inbox_line(m.id, m.raw_data) for m in fresh if getattr(m, "raw_data", None)]
        if lines:
            self._append(lines)


def sent_mail_pump(account_id: str, region: str, log: InboxLog) -> Pump:
    """Moves the e-mails moto's SES (of `account_id` in `region`) sent to `log`."""
    pump = SentMailPump(account_id, region, log.append)
    running = Pump("sent-mail", pump.tick, INTERVAL_SECONDS)
    forget = moto_news.listen(moto_news.MAIL_SENT, running.wake)

    def final_tick() -> None:
        forget()
        pump.tick()  # what SES sent as the stack stopped

    running.final_tick = final_tick
    return running
