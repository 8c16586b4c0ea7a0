"""The human page of `GET /interrupts/{token}` (Accept: text/html), and its error pages. Pure.

Nothing on the page acts on load: only a deliberate click on a button POSTs, from a small inline
script allowed by a per-response CSP nonce. No external asset; every interrupt value is escaped.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from html import escape
from importlib.resources import files
from string import Template
from typing import Any

from waitgate.page import fields

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
class PageContext:
    """What the page shows: the InterruptPayload and where it waits."""

    payload: dict[str, Any]
    run_id: str
    node_id: str
    expires_at: str
    may_resolve: bool = True


@dataclass(frozen=True)
class RenderedPage:
    html: str
    nonce: str = field(repr=False)

    @property
    def content_security_policy(self) -> str:
        nonce = f"'nonce-{self.nonce}'"
        return (
            f"default-src 'none'; script-src {nonce}; style-src {nonce}; connect-src 'self'; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
        )


def interrupt_page(context: PageContext) -> RenderedPage:
    payload = context.payload
    kind = str(payload.get("kind", ""))
    raw_data = payload.get("data")
    data: dict[str, Any] = raw_data if isinstance(raw_data, dict) else {}
    title = _title_of(kind, data)
    parts = [
        f'<p class="kind">{escape(KIND_LABELS.get(kind, kind))}</p>',
        f"<h1>{escape(title)}</h1>",
        _meta(context),
        _details(kind, data),
    ]
    if context.may_resolve:
        parts.append(_form(kind, data))
    else:
        parts.append('<p class="notice">This link lets you see this request, not answer it.</p>')
    footer = f"waitgate · run <code>{escape(context.run_id)}</code>"
    return layout_page(title, footer, "\n".join(parts), with_script=context.may_resolve)


ERRORS = {
    401: ("This link is not valid", "It may be incomplete or altered. Ask for a new link."),
    403: ("This link cannot do that", "It lets you see this request, not answer it."),
    404: ("Nothing is waiting here", "The run or the step this link names does not exist."),
    409: ("Already resolved", "This request was already answered, or its run has ended. Nothing more to do."),
    410: (
        "This link has expired",
        "Links stop working after a while. Ask for a new link if it still matters.",
    ),
}


CORRECTABLE = frozenset({"validation_error", "payload_too_large", "unsupported_media_type"})


def error_page(status: int, code: str = "", detail: str = "") -> RenderedPage:
    """The page of a refusal: what a person can do about it. An answer refused for what it holds
    (`code` in CORRECTABLE) or for who sent it says why, in the problem's own `detail`."""
    heading, advice = ERRORS.get(status, ("Something went wrong", "Try again in a moment."))
    if code in CORRECTABLE:
        heading, advice = "Your answer was not accepted", f"{detail} Go back, correct it and send it again."
    elif code in {"forbidden", "already_voted"} and detail:
        heading, advice = (heading if code == "forbidden" else "You already answered"), detail
    main = f'<h1>{escape(heading)}</h1>\n<p class="notice gone">{escape(advice)}</p>'
    return layout_page(heading, "waitgate", main, with_script=False)


def layout_page(title: str, footer: str, main: str, *, with_script: bool) -> RenderedPage:
    """`main` and `footer` are HTML already escaped by their builders."""
    nonce = secrets.token_urlsafe(18)
    script = _SCRIPT.substitute(nonce=nonce) if with_script else ""
    html = _LAYOUT.substitute(
        title=escape(title), nonce=nonce, css=_CSS, main=main, footer=footer, script=script
    )
    return RenderedPage(html=html, nonce=nonce)


def _title_of(kind: str, data: dict[str, Any]) -> str:
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
        return "An agent is unsure and asks for review"
    return "Your input is needed"


def _meta(context: PageContext) -> str:
    return (
        '<dl class="meta">'
        f"<dt>Run</dt><dd><code>{escape(context.run_id)}</code></dd>"
        f"<dt>Step</dt><dd><code>{escape(context.node_id)}</code></dd>"
        f"<dt>Link valid until</dt><dd>{escape(context.expires_at)}</dd>"
        "</dl>"
    )


def _details(kind: str, data: dict[str, Any]) -> str:
    if kind == "approval":
        shown = []
        if isinstance(data.get("description"), str):
            shown.append(f"<p>{escape(data['description'])}</p>")
        artifact_type, artifact_id = (
            escape(str(data.get("artifactType", ""))),
            escape(str(data.get("artifactId", ""))),
        )
        shown.append(f"<h2>Artifact <code>{artifact_type}</code> · <code>{artifact_id}</code></h2>")
        if "artifact" in data:
            shown.append(f"<pre>{fields.pretty_json(data['artifact'])}</pre>")
        return "\n".join(shown)
    if kind == "clarification":
        context = data.get("context")
        return f"<h2>Context</h2><pre>{fields.pretty_json(context)}</pre>" if context else ""
    return f"<h2>Details</h2><pre>{fields.pretty_json(data)}</pre>"


def _form(kind: str, data: dict[str, Any]) -> str:
    if kind == "approval":
        actions = [a for a in data.get("actions", []) if isinstance(a, str)]
        body = [fields.comment_box()]
        if "refine" in actions:
            body.append(fields.refine_fieldset())
        if "edit-accept" in actions:
            body.append(fields.edit_fieldset(data.get("artifact", {})))
        body.append(fields.action_buttons(actions))
    elif kind == "clarification":
        questions = [q for q in data.get("questions", []) if isinstance(q, dict)]
        body = [fields.question_field(index, question) for index, question in enumerate(questions)]
        body.append(fields.submit_button("Send answers"))
    else:
        body = [fields.json_answer_box("Your answer (JSON)"), fields.submit_button("Send")]
    status = '<p id="status" class="status" role="status" aria-live="polite" tabindex="-1"></p>'
    # The form's default button is a disabled one: Enter in a text field never submits by itself.
    guard = '<button type="submit" disabled hidden data-guard aria-hidden="true" tabindex="-1"></button>'
    # With scripts off the browser posts the form itself (urlencoded, to this same URL: nothing the
    # person typed ever lands in a URL) and shows the answer page; with scripts on, the script does.
    form = f'<form id="decide" method="post" accept-charset="utf-8" data-kind="{escape(kind)}" novalidate>'
    return f"{form}{guard}{''.join(body)}</form>{status}"
