"""The page of an expired link (410): it leads somewhere. It names the request, its run and its step,
links to the inbox, and — while the request still waits — offers "E-mail me a fresh link"; once the
request was decided, it says what was decided, by whom (or by the deadline) and when. Pure; every
value escaped. The links are relative to the link's own URL (`<base>/interrupts/<token>`), so they
reach the same host under any base path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from html import escape
from typing import Any

from waitgate.page.answered import Resolution, decision_summary
from waitgate.page.render import KIND_LABELS, RenderedPage, layout_page, title_of
from waitgate.page.schema_fields import humanize
from waitgate.page.times import moment_html

INBOX_HREF = "../inbox"
FRESH_LINK_ACTION = "../fresh-links"


@dataclass(frozen=True)
class ExpiredFacts:
    """What the expired link names and what came of its request.

    `waits`: the request may still be answered; `fresh_token`: the expired token, when a fresh link
    may be asked with it (a person's resolve link to a request that waits); `resolution`: what was
    decided, once it was."""

    run_id: str
    node_id: str
    expired_at: str
    kind: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    waits: bool = False
    fresh_token: str | None = None
    resolution: Resolution | None = None
    by_deadline: bool = False


def expired_page(facts: ExpiredFacts, now: datetime | None = None) -> RenderedPage:
    if facts.resolution is not None:
        heading = "Decided by the deadline" if facts.by_deadline else "Already decided"
        said = "This link has expired, and the request was decided. Nothing more to do."
    elif facts.waits:
        heading, said = "This link has expired", "The request still waits for an answer."
    else:
        heading = "This link has expired"
        said = "The request no longer waits for an answer: its deadline passed, or its run ended."
    parts = []
    if facts.kind:
        parts.append(f'<p class="kind">{escape(KIND_LABELS.get(facts.kind, facts.kind))}</p>')
    parts += [f"<h1>{escape(heading)}</h1>", _what(facts, said), _where(facts, now)]
    if facts.resolution is not None:
        parts.append(decision_summary(facts.resolution, now))
    parts.append(_next_steps(facts))
    footer = f"waitgate · run <code>{escape(facts.run_id)}</code>"
    return layout_page(heading, footer, "\n".join(parts), with_script=False)


def _what(facts: ExpiredFacts, said: str) -> str:
    title = title_of(facts.kind, facts.data) if facts.kind else ""
    about = f"<strong>{escape(title)}</strong> — " if title else ""
    tone = "recorded" if facts.resolution is not None else "gone"
    return f'<p id="status" class="notice {tone}" role="status">{about}{escape(said)}</p>'


def _where(facts: ExpiredFacts, now: datetime | None) -> str:
    rows = [
        ("Run", f"<code>{escape(facts.run_id)}</code>"),
        ("Step", escape(humanize(facts.node_id))),
        ("This link worked until", moment_html(facts.expired_at, now)),
    ]
    listed = "".join(f"<div><dt>{name}</dt><dd>{value}</dd></div>" for name, value in rows)
    return f'<dl class="meta">{listed}</dl>'


def _next_steps(facts: ExpiredFacts) -> str:
    inbox = (
        f'<p><a href="{INBOX_HREF}">Open your inbox</a>: every request that waits for you, '
        "after you sign in.</p>"
    )
    if facts.resolution is not None or not facts.waits:
        return f"<h2>What you can do</h2>{inbox}"
    if facts.fresh_token is None:
        return (
            f"<h2>What you can do</h2>{inbox}"
            "<p>This link was not made for a named person: ask whoever sent it for a new one.</p>"
        )
    return (
        f"<h2>What you can do</h2>{inbox}"
        f'<form method="post" action="{FRESH_LINK_ACTION}" class="fresh-link">'
        f'<input type="hidden" name="token" value="{escape(facts.fresh_token)}">'
        "<p>Or have a fresh link sent to the e-mail address waitgate has for the person this link "
        "was made for, if the request still waits for them.</p>"
        '<button type="submit" class="primary">E-mail me a fresh link</button></form>'
    )


FRESH_LINK_ANSWER = (
    "If this link was made for you and the request still waits for you, a fresh link is on its way "
    "to the e-mail address waitgate has for you. At most one is sent every 5 minutes."
)


def fresh_link_page() -> RenderedPage:
    """The one answer to `POST /fresh-links` (202), whatever came of it: it tells nobody whether the
    link's person may decide, or has an address."""
    main = (
        "<h1>Check your e-mail</h1>"
        f'<p id="status" class="notice recorded" role="status">{escape(FRESH_LINK_ANSWER)}</p>'
        f'<p><a href="{escape(INBOX_FROM_FRESH_LINKS)}">Open your inbox</a> instead, after you sign in.</p>'
    )
    return layout_page("Check your e-mail", "waitgate", main, with_script=False)


INBOX_FROM_FRESH_LINKS = "inbox"  # relative to `<base>/fresh-links`
