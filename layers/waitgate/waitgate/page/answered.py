"""The pages that say what came of a request: the answer page a browser gets after posting the form
(200: "Your answer was recorded"), and the page of a link whose request was already resolved (409:
"Already resolved"). Both say what was decided, by whom and when. Pure; every value escaped.
Refusals get `render.error_page` (or the form again, with the error beside its field).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

from waitgate.page.approval_form import ACTION_LABELS
from waitgate.page.approval_view import VOTED
from waitgate.page.readable import readable
from waitgate.page.render import KIND_LABELS, RenderedPage, layout_page, title_of
from waitgate.page.times import moment_html


@dataclass(frozen=True)
class Resolution:
    """What was decided: the resume value the workflow goes on with, when, and by whom if known."""

    kind: str
    data: dict[str, Any]
    resume_value: Any
    resolved_at: str | None = None
    answered_by: str | None = None


RUN_GONE = (
    "But its run was no longer waiting for it: the run had ended, or its workflow engine no longer knew "
    "it. Nothing goes on with this answer; tell whoever started the run."
)


def answer_page(
    status: int,
    answer: dict[str, Any],
    resolution: Resolution | None = None,
    now: datetime | None = None,
    *,
    run_gone: bool = False,
) -> RenderedPage:
    """`answer`: the resolve answer, `{runId, nodeId, interruptId, status, resumeValue?}`; `run_gone`:
    the workflow engine said the run no longer waits (the delivery was recorded as task-gone)."""
    if status == 202:
        outcome = "The request is still open: it waits for more answers. You can close this page."
    elif run_gone:
        outcome = RUN_GONE
    else:
        outcome = "The run goes on with it. You can close this page."
    parts = [
        "<h1>Your answer was recorded</h1>",
        f'<p id="status" class="notice recorded" role="status">{escape(outcome)}</p>',
    ]
    if "resumeValue" in answer:
        shown = resolution or Resolution("", {}, answer["resumeValue"])
        parts.append(decision_summary(shown, now))
    footer = f"waitgate · run <code>{escape(str(answer.get('runId', '')))}</code>"
    return layout_page("Your answer was recorded", footer, "\n".join(parts), with_script=True)


def resolved_page(resolution: Resolution, run_id: str, now: datetime | None = None) -> RenderedPage:
    title = title_of(resolution.kind, resolution.data)
    parts = [
        f'<p class="kind">{escape(KIND_LABELS.get(resolution.kind, resolution.kind))}</p>',
        "<h1>Already resolved</h1>",
        f'<p class="notice">{escape(title)} — this request was already answered. Nothing more to do.</p>',
        decision_summary(resolution, now),
    ]
    footer = f"waitgate · run <code>{escape(run_id)}</code>"
    return layout_page("Already resolved", footer, "\n".join(parts), with_script=True)


def decision_summary(resolution: Resolution, now: datetime | None) -> str:
    value = resolution.resume_value
    if isinstance(value, dict) and isinstance(value.get("action"), str):
        return _approval_summary(value, resolution, now)
    rows: list[tuple[str, str]] = []
    if (
        isinstance(value, dict)
        and isinstance(value.get("confirmed"), bool)
        and resolution.kind == "low-confidence"
    ):
        verdict = "The agent's decision was confirmed" if value["confirmed"] else "Decided otherwise"
        rows.append(("Review", escape(verdict)))
        if "decision" in value:
            rows.append(("Decision", readable(value["decision"])))
        if isinstance(value.get("comment"), str):
            rows.append(("Comment", escape(value["comment"])))
    else:
        rows.append(("What was sent", readable(value)))
    rows += _who_and_when(resolution.answered_by, resolution.resolved_at, now)
    return _listed("What was decided", rows)


def _approval_summary(value: dict[str, Any], resolution: Resolution, now: datetime | None) -> str:
    action = str(value["action"])
    rows = [("Decision", escape(ACTION_LABELS.get(action, action)))]
    by = value.get("decidedBy") if isinstance(value.get("decidedBy"), str) else resolution.answered_by
    rows += _who_and_when(by, value.get("decidedAt") or resolution.resolved_at, now)
    if isinstance(value.get("feedback"), str):
        rows.append(("Comment", escape(value["feedback"])))
    refine = value.get("refineFeedback")
    if isinstance(refine, dict):
        rows.append(("Changes requested", escape(str(refine.get("text", "")))))
        where = (
            refine.get("sectionPath")
            or ", ".join(map(str, refine.get("itemIds", [])))
            or "the whole artifact"
        )
        rows.append(("Of", escape(str(where))))
    if "editedArtifactData" in value:
        rows.append(("The artifact as accepted", readable(value["editedArtifactData"])))
    votes = value.get("votes")
    if isinstance(votes, list) and len(votes) > 1:
        lines = "".join(
            f"<li><strong>{escape(str(v.get('principal', '')))}</strong> "
            f"{escape(VOTED.get(str(v.get('action')), str(v.get('action'))))}</li>"
            for v in votes
            if isinstance(v, dict)
        )
        rows.append(("Votes", f'<ul class="votes">{lines}</ul>'))
    return _listed("What was decided", rows)


def _who_and_when(by: Any, when: Any, now: datetime | None) -> list[tuple[str, str]]:
    rows = []
    if isinstance(by, str) and by:
        rows.append(("Decided by", escape(_decider(by))))
    if isinstance(when, str) and when:
        rows.append(("When", moment_html(when, now)))
    return rows


def _decider(principal: str) -> str:
    if principal == "waitgate:deadline":  # an escalation policy's decision (docs/escalation.md)
        return "nobody in time: the deadline's default decision"
    return "a link without a named person" if principal.startswith("token:") else principal


def _listed(heading: str, rows: list[tuple[str, str]]) -> str:
    listed = "".join(f"<div><dt>{escape(name)}</dt><dd>{value}</dd></div>" for name, value in rows)
    return f'<h2>{escape(heading)}</h2><dl class="decided">{listed}</dl>'
