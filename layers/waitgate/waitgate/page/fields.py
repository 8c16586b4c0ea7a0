"""Form controls for the human page, one function per kind of input. Every value is HTML-escaped."""

from __future__ import annotations

import json
from html import escape
from typing import Any, Literal, cast

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


ANSWER_FIELD = "answers."  # a clarification answer's form field: "answers.<questionId>"
AnswerType = Literal["string", "json", "boolean", "number", "integer"]


def question_schema(question: dict[str, Any]) -> dict[str, Any]:
    raw_schema = question.get("schema")
    return raw_schema if isinstance(raw_schema, dict) else {}


def answer_type(question: dict[str, Any]) -> AnswerType:
    """How a question's answer is read back from its control (the page's script and a posted form
    agree): an enum of strings and free text as text; other enums, objects and arrays as JSON."""
    schema = question_schema(question)
    if isinstance(schema.get("enum"), list):
        return "string" if all(isinstance(choice, str) for choice in schema["enum"]) else "json"
    kind = schema.get("type")
    if kind in {"boolean", "number", "integer"}:
        return cast(AnswerType, kind)
    return "json" if kind in {"object", "array"} else "string"


def question_field(index: int, question: dict[str, Any]) -> str:
    """One clarification question as a labelled control chosen from its schema."""
    control_id = f"q-{index}"
    text = escape(str(question.get("question", "")))
    label = f'<label for="{control_id}">{text}</label>'
    schema = question_schema(question)
    question_id = escape(str(question.get("id", "")))
    kind = answer_type(question)
    common = (
        f'id="{control_id}" name="{ANSWER_FIELD}{question_id}" data-question="{question_id}" '
        f'data-type="{kind}"'
    )
    if isinstance(schema.get("enum"), list):
        return label + _select(common, schema["enum"], as_text=kind == "string")
    if kind == "boolean":
        checkbox = f'<input type="checkbox" {common} value="true">'
        return f'<div class="check">{checkbox}<label for="{control_id}">{text}</label></div>'
    if kind in {"number", "integer"}:
        step = "1" if kind == "integer" else "any"
        return f'{label}<input type="number" step="{step}" {common} required>'
    if kind == "json":
        return f'{label}<textarea {common} spellcheck="false"></textarea>'
    return f'{label}<input type="text" {common} autocomplete="off">'


def _select(common: str, choices: list[Any], *, as_text: bool) -> str:
    """Strings are sent as they are; any other choice (number, null, ...) as its JSON."""
    values = [str(choice) if as_text else json.dumps(choice) for choice in choices]
    options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return f"<select {common}>{options}</select>"
