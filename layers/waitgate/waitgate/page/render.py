"""The human page of `GET /interrupts/{token}` (Accept: text/html), and its error pages. Pure.

Nothing on the page acts on load: only a deliberate press of a button POSTs the form, to the link's
own URL. The page works without script; a small inline script (allowed by a per-response CSP nonce)
only improves it: local times, byte counters, checks before sending. No external asset; every
interrupt value is escaped.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from html import escape
from importlib.resources import files
from string import Template
from typing import Any

from waitgate.page import approval_view
from waitgate.page.approval_form import ACTION_LABELS
from waitgate.page.decision_form import PageForm, place_errors, render_form
from waitgate.page.form_resume import page_form_of
from waitgate.page.kind_view import kind_details
from waitgate.page.schema_controls import Filled
from waitgate.page.schema_fields import humanize
from waitgate.page.times import moment_html, parse_moment

_PACKAGE = files("waitgate.page")
_LAYOUT = Template(_PACKAGE.joinpath("layout.html").read_text(encoding="utf-8"))
_SCRIPT = Template(_PACKAGE.joinpath("submit.html").read_text(encoding="utf-8"))
_CSS = _PACKAGE.joinpath("page.css").read_text(encoding="utf-8")

KIND_LABELS = {
    "approval": "Approval",
    "clarification": "Questions",
    "external-event": "External event",
    "custom": "Request",
    "low-confidence": "Low-confidence decision",
    "conversation.start": "Conversation",
    "conversation.exchange": "Conversation",
    "conversation.close": "Conversation",
}


@dataclass(frozen=True)
class Refusal:
    """What the server refused of a posted form: shown beside the field its path names, with what the
    person posted kept in the form."""

    form: Mapping[str, str]
    path: str
    detail: str


@dataclass(frozen=True)
class PageContext:
    """What the page shows: the InterruptPayload, where it waits, who the link decides as, and what
    came of the decision so far (an approval's votes and questions)."""

    payload: dict[str, Any]
    run_id: str
    node_id: str
    expires_at: str
    may_resolve: bool = True
    principal: str | None = None  # the link's recipient (its token's sub); None: nobody named
    now: datetime | None = None
    deadline: str | None = None
    votes: tuple[dict[str, Any], ...] = ()
    asks: tuple[dict[str, Any], ...] = ()
    refusal: Refusal | None = None
    notice: str = ""  # what the page says first: "Your question was sent."
    on_deadline: Any = None  # the escalation policy's resolveWith: what the deadline decides, if anything
    view_only: str = "This link lets you see this request, not answer it."  # said instead of the form
    decides_for: str | None = None  # the delegator whose seat the recipient's vote takes, if any


@dataclass(frozen=True)
class RenderedPage:
    html: str
    nonce: str = field(repr=False)
    connect: tuple[str, ...] = ()  # origins the page's script may fetch from besides its own

    @property
    def content_security_policy(self) -> str:
        nonce = f"'nonce-{self.nonce}'"
        connect = " ".join(("'self'", *self.connect))
        return (
            f"default-src 'none'; script-src {nonce}; style-src {nonce}; connect-src {connect}; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
        )


def interrupt_page(context: PageContext) -> RenderedPage:
    title, main, footer = interrupt_parts(context)
    return layout_page(title, footer, main, with_script=context.may_resolve)


def interrupt_parts(context: PageContext) -> tuple[str, str, str]:
    """The page's title, its main content and its footer (HTML, escaped): what the link page shows,
    and what the inbox opens in place."""
    payload = context.payload
    kind = str(payload.get("kind", ""))
    raw_data = payload.get("data")
    data: dict[str, Any] = raw_data if isinstance(raw_data, dict) else {}
    title = title_of(kind, data)
    parts = [f'<p class="kind">{escape(KIND_LABELS.get(kind, kind))}</p>', f"<h1>{escape(title)}</h1>"]
    if context.notice:
        parts.append(f'<p class="notice recorded" role="status">{escape(context.notice)}</p>')
    if kind == "approval" and isinstance(data.get("description"), str) and data["description"]:
        parts.append(f'<p class="description">{escape(data["description"])}</p>')
    mine = approval_view.own_vote(context.votes, context.principal) if kind == "approval" else None
    if mine is not None and context.may_resolve:  # first thing said on a reopened link: it waits
        parts.append(approval_view.waiting_notice(data, context.votes, mine, context.now))
    parts.append(_meta(context))
    if kind == "approval":
        parts += [
            approval_view.quorum_section(data, context.votes, context.now),
            approval_view.approval_details(data),
            approval_view.asks_section(context.asks, context.now),
        ]
    else:
        parts.append(kind_details(kind, data))
    parts.append(_decision(context, kind, data))
    footer = (
        f"waitgate · run <code>{escape(context.run_id)}</code> · step <code>{escape(context.node_id)}</code>"
    )
    return title, "\n".join(p for p in parts if p), footer


def _decision(context: PageContext, kind: str, data: dict[str, Any]) -> str:
    if not context.may_resolve:
        return f'<p class="notice">{escape(context.view_only)}</p>'
    page_form = page_form_of(context.payload)
    voted = kind == "approval" and approval_view.own_vote(context.votes, context.principal) is not None
    if voted:
        if page_form.action("ask") is None:
            return ""  # the page said at its top that the vote is recorded
        only_ask = frozenset({"ask"})
        return _form(kind, page_form, context.refusal, only_ask, "You can still ask a question")
    heading = "Your decision" if kind in {"approval", "low-confidence"} else "Your answer"
    return _form(kind, page_form, context.refusal, None, heading)


def _form(
    kind: str, page_form: PageForm, refusal: Refusal | None, only: frozenset[str] | None, heading: str
) -> str:
    filled, summary = Filled(), ""
    if refusal is not None:
        detail = _shown_detail(refusal)
        placed, unplaced = place_errors(page_form, {refusal.path: detail}, refusal.form.get("action", ""))
        filled = Filled(refusal.form, placed)
        summary = _error_summary(page_form, placed, unplaced)
    # The form's default button is a disabled one: Enter in a text field never submits by itself.
    guard = '<button type="submit" disabled hidden data-guard aria-hidden="true" tabindex="-1"></button>'
    # The browser posts the form itself (urlencoded, to this same URL: nothing the person typed ever
    # lands in a URL) and shows the answer page; the script only checks it first.
    shared = ""
    if page_form.shared_by is not None:
        shared = f' data-shared-actions="{escape(" ".join(page_form.shared_by))}"'
    form = (
        f'<form id="decide" method="post" accept-charset="utf-8" data-kind="{escape(kind)}"{shared} '
        "novalidate>"
    )
    body = render_form(page_form, filled, only)
    return f'<h2 id="decide-heading">{escape(heading)}</h2>{summary}{form}{guard}{body}</form>'


def _shown_detail(refusal: Refusal) -> str:
    """The refusal's detail without the path it may start with ("resumeValue.amount: ...")."""
    return re.sub(r"^resumeValue[^\s:]*: ", "", refusal.detail)


def _error_summary(page_form: PageForm, placed: dict[str, str], unplaced: list[str]) -> str:
    labels = {target.name: target.label for target in page_form.fields()}
    items = [
        f"<li>{escape(labels.get(name, name))}: {escape(message)}</li>" for name, message in placed.items()
    ]
    items += [f"<li>{escape(message)}</li>" for message in unplaced]
    return (
        '<div class="error-summary" id="error-summary" role="alert" tabindex="-1" autofocus>'
        f"<h3>Your answer was not accepted</h3><ul>{''.join(items)}</ul>"
        "<p>Correct it below and send it again.</p></div>"
    )


def _meta(context: PageContext) -> str:
    rows = []
    if context.may_resolve:
        who = context.principal
        shown = escape(who) if who and not who.startswith("token:") else "whoever holds this link"
        rows.append(("You decide as", f"<strong>{shown}</strong>"))
        if context.decides_for:
            delegator = escape(context.decides_for)
            rows.append(("On behalf of", f"You decide for <strong>{delegator}</strong>, as their delegate."))
    rows.append(("Step", escape(humanize(context.node_id))))
    deadline, expires = parse_moment(context.deadline or ""), parse_moment(context.expires_at)
    if deadline is not None:
        rows.append(("Decide by", moment_html(context.deadline or "", context.now)))
        if context.on_deadline is not None:
            rows.append(("If nobody decides in time", _default_decision(context.on_deadline)))
    # A link's expiry is rounded down to the second: one that ends in the deadline's own second lasts
    # as long as the person has, and the page says so once ("Decide by").
    if expires is not None and (deadline is None or expires < deadline.replace(microsecond=0)):
        rows.append(("This link works until", moment_html(context.expires_at, context.now)))
    listed = "".join(f"<div><dt>{name}</dt><dd>{value}</dd></div>" for name, value in rows)
    return f'<dl class="meta">{listed}</dl>'


def _default_decision(value: Any) -> str:
    """An escalation policy's decision at the deadline, in words (docs/escalation.md)."""
    if isinstance(value, dict) and isinstance(value.get("action"), str):
        action = str(value["action"])
        said = escape(ACTION_LABELS.get(action, action))
        if isinstance(value.get("feedback"), str) and value["feedback"]:
            said += f" — <q>{escape(value['feedback'])}</q>"
        return said
    return "the run goes on with the default answer its workflow set"


ERRORS = {
    401: ("This link is not valid", "It may be incomplete or altered. Ask for a new link."),
    403: ("This link cannot do that", "It lets you see this request, not answer it."),
    404: ("Nothing is waiting here", "The run or the step this link names does not exist."),
    409: ("Already resolved", "This request was already answered, or its run has ended. Nothing more to do."),
    410: (
        "This link has expired",
        "Links stop working after a while. Ask for a new link if it still matters.",
    ),
    503: ("Nothing was recorded", "waitgate is busy right now. Send your answer again in a moment."),
    504: (
        "Your answer may not have been recorded",
        "waitgate sent it and got no confirmation. Open this link again in a moment: it shows the "
        "request as decided if your answer counted, or lets you send it again.",
    ),
}


CORRECTABLE = frozenset({"validation_error", "payload_too_large", "unsupported_media_type"})


def error_page(status: int, code: str = "", detail: str = "") -> RenderedPage:
    """The page of a refusal: what a person can do about it. An answer refused for what it holds
    (`code` in CORRECTABLE) or for who sent it says why, in the problem's own `detail`."""
    heading, advice = ERRORS.get(status, ("Something went wrong", "Try again in a moment."))
    if code in CORRECTABLE:
        heading, advice = "Your answer was not accepted", f"{detail} Go back, correct it and send it again."
    elif code == "self_approval_refused":
        heading, advice = "Someone else must decide this", f"{detail} You asked for it; nothing was recorded."
    elif code in {"forbidden", "already_voted"} and detail:
        heading, advice = (heading if code == "forbidden" else "You already answered"), detail
    main = f'<h1>{escape(heading)}</h1>\n<p class="notice gone">{escape(advice)}</p>'
    return layout_page(heading, "waitgate", main, with_script=False)


def layout_page(
    title: str,
    footer: str,
    main: str,
    *,
    with_script: bool,
    more_script: Template | None = None,
    connect: tuple[str, ...] = (),
) -> RenderedPage:
    """`main` and `footer` are HTML already escaped by their builders. Every script and style is
    inline under this response's nonce; `more_script` (a template of `$nonce`) comes after the page's
    own, and `connect` names origins besides the page's own that it may fetch from."""
    nonce = secrets.token_urlsafe(18)
    script = _SCRIPT.substitute(nonce=nonce) if with_script else ""
    if more_script is not None:
        script += more_script.substitute(nonce=nonce)
    html = _LAYOUT.substitute(
        title=escape(title), nonce=nonce, css=_CSS, main=main, footer=footer, script=script
    )
    return RenderedPage(html=html, nonce=nonce, connect=connect)


def title_of(kind: str, data: dict[str, Any]) -> str:
    for name in ("title", "prompt", "topic"):
        if isinstance(data.get(name), str) and data[name]:
            return str(data[name])
    if kind == "clarification":
        return "A few questions need your answer"
    if kind == "external-event":
        return f"Waiting for {data.get('eventType', 'an external event')}"
    if kind == "custom":
        return f"{data.get('customKind', 'A request')} needs your input"
    if kind == "low-confidence":
        return "An agent is unsure and asks for your review"
    if kind == "conversation.close":
        return "Close the conversation"
    return "Your input is needed"
