"""What an approval's page says besides its form: how the decision is made and how far it got
("2 of 3 approvals needed · ann accepted 10:02"), your own vote once cast ("waiting for 1 more"),
and everything the payload carries to decide with: description, the agent framework's quality-gate
fields (autoScore, reasons, criteria) and the artifact, rendered readably. Pure; all escaped.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Any

from waitgate.page.action_view import action_section
from waitgate.page.readable import readable
from waitgate.page.times import moment_html

VOTED = {
    "accept": "accepted",
    "edit-accept": "accepted with edits",
    "reject": "rejected",
    "refine": "asked for changes",
}


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def required_approvals(data: dict[str, Any]) -> int:
    n = data.get("requiredApprovals", 1)
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 1 else 1


def rejections_needed(data: dict[str, Any]) -> int:
    if data.get("rejectionPolicy") == "majority":
        return required_approvals(data) // 2 + 1
    return 1


def tally(votes: tuple[dict[str, Any], ...]) -> tuple[int, int]:
    accepts = sum(1 for vote in votes if vote.get("action") in {"accept", "edit-accept"})
    rejects = sum(1 for vote in votes if vote.get("action") == "reject")
    return accepts, rejects


def own_vote(votes: tuple[dict[str, Any], ...], principal: str | None) -> dict[str, Any] | None:
    return next((vote for vote in votes if principal and vote.get("principal") == principal), None)


def rule_text(data: dict[str, Any]) -> str:
    """ "2 of 3 approvals needed" (of the listed approvers), or "2 approvals needed"."""
    n = required_approvals(data)
    raw = data.get("approversList")
    listed: list[Any] = raw if isinstance(raw, list) else []
    only_listed = listed and not data.get("approverGroupRefs") and not data.get("approverRoleRefs")
    if only_listed and n <= len(listed):
        return f"{n} of {len(listed)} approvals needed"
    return "One approval decides" if n == 1 else f"{n} approvals needed"


def rejection_text(data: dict[str, Any]) -> str:
    if data.get("rejectionPolicy") == "majority":
        return f"{_count(rejections_needed(data), 'reject')} reject it."
    return "A single reject rejects it."


def quorum_section(data: dict[str, Any], votes: tuple[dict[str, Any], ...], now: datetime | None) -> str:
    accepts, _ = tally(votes)
    n = required_approvals(data)
    progress = f" · {accepts} of {n} so far" if n > 1 or votes else ""
    lines = [f"<p><strong>{escape(rule_text(data))}</strong>{progress}. {escape(rejection_text(data))}"]
    if data.get("overrideBypassesQuorum") is True:
        lines.append(" An on-call override may decide alone.")
    lines.append("</p>")
    if votes:
        lines.append(f'<ul class="votes">{"".join(_vote_line(vote, now) for vote in votes)}</ul>')
    return (
        '<section class="quorum" aria-labelledby="quorum-heading">'
        f'<h2 id="quorum-heading">How this is decided</h2>{"".join(lines)}</section>'
    )


def _vote_line(vote: dict[str, Any], now: datetime | None) -> str:
    who = escape(str(vote.get("principal", "someone")))
    did = escape(VOTED.get(str(vote.get("action")), str(vote.get("action"))))
    when = moment_html(str(vote["decidedAt"]), now, short=True, relative=False) if "decidedAt" in vote else ""
    comment = vote.get("feedback")
    said = f" — <q>{escape(comment)}</q>" if isinstance(comment, str) and comment else ""
    return f"<li><strong>{who}</strong> {did} {when}{said}</li>"


def waiting_text(data: dict[str, Any], votes: tuple[dict[str, Any], ...]) -> str:
    accepts, rejects = tally(votes)
    more = max(1, required_approvals(data) - accepts)
    text = f"Waiting for {more} more approval{'s' if more != 1 else ''}"
    if data.get("rejectionPolicy") == "majority":
        against = max(1, rejections_needed(data) - rejects)
        text += f" (or {against} more reject{'s' if against != 1 else ''})"
    return text + "."


def waiting_notice(
    data: dict[str, Any], votes: tuple[dict[str, Any], ...], mine: dict[str, Any], now: datetime | None
) -> str:
    did = VOTED.get(str(mine.get("action")), "voted")
    when = moment_html(str(mine["decidedAt"]), now, short=True, relative=False) if "decidedAt" in mine else ""
    return (
        '<div class="notice recorded" role="status"><h2>Your vote is recorded</h2>'
        f"<p>You {escape(did)} {when}. {escape(waiting_text(data, votes))} "
        "Nothing more is needed from you: this link shows the decision once it is made.</p></div>"
    )


def asks_section(asks: tuple[dict[str, Any], ...], now: datetime | None) -> str:
    if not asks:
        return ""
    items = []
    for ask in asks:
        who = escape(str(ask.get("principal", "someone")))
        when = moment_html(str(ask["askedAt"]), now, short=True, relative=False) if "askedAt" in ask else ""
        question = escape(str(ask.get("feedback", "")))
        items.append(f"<li><strong>{who}</strong> asked {when}: <q>{question}</q></li>")
    return f'<h2>Questions asked so far</h2><ul class="votes">{"".join(items)}</ul>'


def approval_details(data: dict[str, Any]) -> str:
    """The machine's assessment, the criteria and the artifact (the description is under the title)."""
    parts = [_assessment(data), action_section(data)]
    criteria = (
        [c for c in data.get("criteria", []) if isinstance(c, str)]
        if isinstance(data.get("criteria"), list)
        else []
    )
    if criteria:
        listed = "".join(f"<li>{escape(c)}</li>" for c in criteria)
        parts.append(f'<h2>Criteria</h2><ul class="criteria">{listed}</ul>')
    artifact_type = escape(str(data.get("artifactType", "")))
    artifact_id = escape(str(data.get("artifactId", "")))
    parts.append(f"<h2>The {artifact_type} <code>{artifact_id}</code></h2>")
    if "artifact" in data:
        parts.append(f'<div class="artifact">{readable(data["artifact"])}</div>')
    else:
        parts.append('<p class="hint">The request carries no artifact to show.</p>')
    return "".join(parts)


def _assessment(data: dict[str, Any]) -> str:
    """Why a machine could not clear it: its score and its reasons."""
    reasons = (
        [r for r in data.get("reasons", []) if isinstance(r, str)]
        if isinstance(data.get("reasons"), list)
        else []
    )
    score = data.get("autoScore")
    if not reasons and not isinstance(score, int | float):
        return ""
    html = "<h2>Why it needs a person</h2>"
    if isinstance(score, int | float) and not isinstance(score, bool):
        html += f'<p class="score">Automatic score: <strong>{escape(_score(score))}</strong></p>'
    if reasons:
        html += f'<ul class="reasons">{"".join(f"<li>{escape(r)}</li>" for r in reasons)}</ul>'
    return html


def _score(score: float) -> str:
    return f"{score:.2f}".rstrip("0").rstrip(".") if isinstance(score, float) else str(score)
