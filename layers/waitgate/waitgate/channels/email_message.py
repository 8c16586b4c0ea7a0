"""The e-mail a recipient gets: one MIME message with a plain-text and an HTML part (docs/channels.md).

What is asked, by whom (run, workflow), by when (the deadline, and the link's own expiry), the
recipient's own link and a line that it is personal. Nothing remote: no images, no web fonts, no
style sheets, no tracking pixel, no redirecting links; the only link is the personal one, as it is.
Every value from the interrupt is HTML-escaped.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr
from html import escape

from waitgate.channels.message_facts import ACTION_LABELS, MessageFacts, names, shown_time

HEADER_PREFIX = "X-Waitgate-"  # for mail filters: tenant, run, node, kind, recipient (never the link)


@dataclass(frozen=True)
class EmailContent:
    subject: str
    text: str
    html: str
    headers: tuple[tuple[str, str], ...]

    def mime(self, sender: str, to: str, sender_name: str = "waitgate") -> bytes:
        """The whole message as SES v2 `Content.Raw` takes it (multipart/alternative, UTF-8)."""
        message = EmailMessage()
        message["Subject"] = self.subject
        message["From"] = formataddr((sender_name, sender))
        message["To"] = to
        for name, value in self.headers:
            message[name] = value
        message.set_content(self.text, charset="utf-8")
        message.add_alternative(self.html, subtype="html", charset="utf-8")
        return message.as_bytes()


def email_content(facts: MessageFacts) -> EmailContent:
    return EmailContent(
        subject=facts.subject,
        text=_text(facts),
        html=_html(facts),
        headers=(
            (f"{HEADER_PREFIX}Tenant", facts.tenant_id),
            (f"{HEADER_PREFIX}Run-Id", facts.run_id),
            (f"{HEADER_PREFIX}Node-Id", facts.node_id),
            (f"{HEADER_PREFIX}Kind", facts.kind),
            (f"{HEADER_PREFIX}Recipient", facts.recipient),
        ),
    )


def _rows(facts: MessageFacts) -> list[tuple[str, str]]:
    rows = [("Run", f"{facts.run_id} (tenant {facts.tenant_id})"), ("Step", facts.node_id)]
    if facts.workflow:
        rows.append(("Workflow", facts.workflow))
    if facts.bound_action:
        rows.append(("Action", facts.bound_action))
    if facts.changes:
        rows.append(("Changes", "; ".join(facts.changes)))
    if facts.actions:
        rows.append(("You can", ", ".join(ACTION_LABELS.get(a, a) for a in facts.actions)))
    if facts.progress is not None and facts.progress.required > 1:
        accepted = facts.progress.accepted_by
        so_far = f" (so far: {names(accepted)})" if accepted else ""
        rows.append(("Approvals", f"{len(accepted)} of {facts.progress.required} needed{so_far}"))
    rows.append(("Deadline", shown_time(facts.deadline) if facts.deadline else "none"))
    rows.append(("Link valid until", shown_time(facts.link_expires_at)))
    return rows


def _text(facts: MessageFacts) -> str:
    lines = [f"Hello {facts.recipient},", "", f"{facts.title}", ""]
    if facts.description:
        lines += [facts.description, ""]
    lines += [f"{label + ':':<17} {value}" for label, value in _rows(facts)]
    lines += [
        "",
        "Open your personal link to see everything and answer:",
        facts.link,
        "",
        "This link is personal: it answers as you. Do not forward it.",
        f"It works until {shown_time(facts.link_expires_at)} or until the request is decided.",
    ]
    return "\n".join(lines) + "\n"


_STYLE_BODY = "margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d1d1f"
_STYLE_CARD = "max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px"
_STYLE_BUTTON = (
    "display:inline-block;background:#0b57d0;color:#ffffff;text-decoration:none;"
    "padding:12px 20px;border-radius:6px;font-weight:bold"
)


def _html(facts: MessageFacts) -> str:
    rows = "".join(
        f'<tr><th align="left" style="padding:4px 12px 4px 0;color:#555;font-weight:normal;'
        f'vertical-align:top">{escape(label)}</th><td style="padding:4px 0">{escape(value)}</td></tr>'
        for label, value in _rows(facts)
    )
    description = f"<p>{escape(facts.description)}</p>" if facts.description else ""
    link = escape(facts.link, quote=True)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width">'
        f"<title>{escape(facts.subject)}</title></head>"
        f'<body style="{_STYLE_BODY}"><div style="{_STYLE_CARD}">'
        f'<p style="margin-top:0">Hello {escape(facts.recipient)},</p>'
        f'<h1 style="font-size:20px;margin:0 0 12px">{escape(facts.title)}</h1>{description}'
        f'<table role="presentation" style="border-collapse:collapse;margin:12px 0">{rows}</table>'
        f'<p style="margin:20px 0"><a href="{link}" style="{_STYLE_BUTTON}">Open the request</a></p>'
        '<p style="font-size:13px;color:#555">If the button does not work, copy this address into '
        f'your browser:<br><span style="word-break:break-all">{escape(facts.link)}</span></p>'
        '<p style="font-size:13px;color:#555"><strong>This link is personal:</strong> it answers as '
        f"you. Do not forward it. It works until {escape(shown_time(facts.link_expires_at))} or "
        "until the request is decided.</p>"
        "</div></body></html>"
    )
