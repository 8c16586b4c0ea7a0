"""The page a browser gets after posting the human page's form: the answer was recorded, and what
it was. Pure; every value HTML-escaped. Refusals get `render.error_page` instead."""

from __future__ import annotations

from html import escape
from typing import Any

from waitgate.page import fields
from waitgate.page.render import RenderedPage, layout_page


def answer_page(status: int, answer: dict[str, Any]) -> RenderedPage:
    """`answer`: the resolve answer, `{runId, nodeId, interruptId, status, resumeValue?}`."""
    if status == 202:
        outcome = "The request is still open: it waits for more answers. You can close this page."
    else:
        outcome = "The run goes on with it. You can close this page."
    parts = [
        "<h1>Your answer was recorded</h1>",
        f'<p id="status" class="notice" role="status">{escape(outcome)}</p>',
    ]
    if "resumeValue" in answer:
        parts.append(_what_was_decided(answer["resumeValue"]))
    footer = f"waitgate · run <code>{escape(str(answer.get('runId', '')))}</code>"
    return layout_page("Your answer was recorded", footer, "\n".join(parts), with_script=False)


def _what_was_decided(resume_value: Any) -> str:
    """An approval's decision in words; any other answer as the JSON the workflow receives."""
    if isinstance(resume_value, dict) and isinstance(resume_value.get("action"), str):
        action = str(resume_value["action"])
        rows: list[tuple[str, str]] = [("Decision", fields.ACTION_LABELS.get(action, action))]
        if isinstance(resume_value.get("feedback"), str):
            rows.append(("Comment", resume_value["feedback"]))
        if isinstance(resume_value.get("decidedBy"), str):
            rows.append(("Decided by", resume_value["decidedBy"]))
        listed = "".join(f"<dt>{escape(name)}</dt><dd>{escape(value)}</dd>" for name, value in rows)
        return f'<h2>What was decided</h2><dl class="decided">{listed}</dl>'
    return f"<h2>What was sent</h2><pre>{fields.pretty_json(resume_value)}</pre>"
