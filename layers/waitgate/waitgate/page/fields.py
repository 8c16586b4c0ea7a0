"""Form controls for the human page, one function per kind of input. Every value is HTML-escaped."""

from __future__ import annotations

import json
from html import escape
from typing import Any

ACTION_LABELS = {
    "accept": "Accept",
    "reject": "Reject",
    "refine": "Request changes",
    "edit-accept": "Accept with edits",
    "ask": "Ask a question",
}
_ACTION_CLASS = {"accept": "primary", "reject": "danger"}


def pretty_json(value: Any) -> str:
    return escape(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))


def action_buttons(actions: list[str]) -> str:
    buttons = [
        f'<button type="submit" name="action" value="{escape(action)}" '
        f'class="{_ACTION_CLASS.get(action, "")}">{escape(ACTION_LABELS.get(action, action))}</button>'
        for action in actions
        if isinstance(action, str)
    ]
    return f'<div class="actions" role="group" aria-label="Decision">{"".join(buttons)}</div>'


def submit_button(label: str) -> str:
    return (
        '<div class="actions"><button type="submit" name="action" value="submit" class="primary">'
        f"{escape(label)}</button></div>"
    )


def comment_box() -> str:
    return (
        '<label for="feedback">Comment (optional; your question when you ask one)</label>'
        '<textarea id="feedback" class="prose" name="feedback"></textarea>'
    )


def refine_fieldset() -> str:
    return (
        "<fieldset><legend>If you request changes</legend>"
        '<label for="refine-scope">What should change</label>'
        '<select id="refine-scope" name="scope">'
        '<option value="whole">The whole artifact</option>'
        '<option value="section">One section</option>'
        '<option value="items">Some items</option></select>'
        '<label for="refine-section">Section path (when one section)</label>'
        '<input type="text" id="refine-section" name="sectionPath" autocomplete="off">'
        '<label for="refine-items">Item ids, comma-separated (when some items)</label>'
        '<input type="text" id="refine-items" name="itemIds" autocomplete="off">'
        '<label for="refine-text">Changes requested</label>'
        '<textarea id="refine-text" class="prose" name="text"></textarea>'
        "</fieldset>"
    )


def edit_fieldset(artifact: Any) -> str:
    return (
        "<fieldset><legend>If you accept with edits</legend>"
        '<label for="edited-artifact">Edited artifact (JSON)</label>'
        f'<textarea id="edited-artifact" name="editedArtifactData" spellcheck="false">{pretty_json(artifact)}'
        "</textarea></fieldset>"
    )


def json_answer_box(label: str, initial: Any = None) -> str:
    value = pretty_json({} if initial is None else initial)
    return (
        f'<label for="resume-value">{escape(label)}</label>'
        f'<textarea id="resume-value" name="resumeValue" spellcheck="false">{value}</textarea>'
    )


def question_field(index: int, question: dict[str, Any]) -> str:
    """One clarification question as a labelled control chosen from its schema."""
    control_id = f"q-{index}"
    text = escape(str(question.get("question", "")))
    label = f'<label for="{control_id}">{text}</label>'
    raw_schema = question.get("schema")
    schema: dict[str, Any] = raw_schema if isinstance(raw_schema, dict) else {}
    common = f'id="{control_id}" data-question="{escape(str(question.get("id", "")))}"'
    if isinstance(schema.get("enum"), list):
        return label + _select(common, schema["enum"])
    kind = schema.get("type")
    if kind == "boolean":
        checkbox = f'<input type="checkbox" {common} data-type="boolean">'
        return f'<div class="check">{checkbox}<label for="{control_id}">{text}</label></div>'
    if kind in {"number", "integer"}:
        step = "1" if kind == "integer" else "any"
        return f'{label}<input type="number" step="{step}" {common} data-type="{kind}" required>'
    if kind in {"object", "array"}:
        return f'{label}<textarea {common} data-type="json" spellcheck="false"></textarea>'
    return f'{label}<input type="text" {common} data-type="string" autocomplete="off">'


def _select(common: str, choices: list[Any]) -> str:
    """Strings are sent as they are; any other choice (number, null, ...) as its JSON."""
    as_text = all(isinstance(choice, str) for choice in choices)
    values = [str(choice) if as_text else json.dumps(choice) for choice in choices]
    options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return f'<select {common} data-type="{"string" if as_text else "json"}">{options}</select>'
