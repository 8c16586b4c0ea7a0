"""Form fields (`schema_fields.Field`) as HTML controls: labelled, with their help text, their
constraints as attributes and hints, and an error beside the control when the server refused it.

Shown filled with the field's default, or with what the person posted when the page comes back with
an error. Every value is HTML-escaped; no control acts by itself. Pure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import Any

from waitgate.page.constraint_words import bounds_words, describe
from waitgate.page.schema_fields import NO_DEFAULT, Field
from waitgate.run.clock import parse_rfc3339


@dataclass(frozen=True)
class Filled:
    """What the form shows instead of its defaults: the posted fields, and errors by field name."""

    values: Mapping[str, str] | None = None
    errors: Mapping[str, str] = field(default_factory=dict)

    def error(self, target: Field) -> str:
        return self.errors.get(target.name, "")


EMPTY = Filled()


def encode_choice(target: Field, choice: Any) -> str:
    return str(choice) if target.as_text else json.dumps(choice, ensure_ascii=False)


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def render_field(target: Field, filled: Filled = EMPTY) -> str:
    """One field and, for an object, everything in it."""
    if target.control == "group":
        return _group(target, filled)
    if target.control in {"radios", "checkboxes"}:
        return _choices(target, filled)
    if target.control == "checkbox":
        return _checkbox(target, filled)
    return _single(target, filled)


def _group(target: Field, filled: Filled) -> str:
    inner = "".join(render_field(child, filled) for child in target.children)
    return (
        f'<fieldset class="group" data-path="{escape(target.path)}">'
        f"<legend>{_label_text(target)}</legend>{_hint(target)}{_error(target, filled)}{inner}</fieldset>"
    )


def _single(target: Field, filled: Filled) -> str:
    """A control with one value: a text, a number, a date, a select, a list, a JSON editor."""
    element_id = target.element_id
    label = f'<label for="{element_id}">{_label_text(target)}</label>'
    control = _control(target, _shown(target, filled), _described(target, filled))
    return (
        f'<div class="field" data-path="{escape(target.path)}">{label}{_hint(target)}'
        f"{_error(target, filled)}{control}{_counter(target)}</div>"
    )


def _control(target: Field, shown: str, described: str) -> str:
    attributes = f'id="{target.element_id}" name="{escape(target.name)}"{described}'
    if target.refuses_empty:
        attributes += f' required data-empty-message="{escape(target.empty_text)}"'
    kind = target.control
    if kind == "select":
        return f"<select {attributes}>{_options(target, shown)}</select>"
    if kind in {"textarea", "lines", "json"}:
        extra = ' data-json spellcheck="false" class="code"' if kind == "json" else ""
        extra += _text_limits(target) if kind == "textarea" else ""
        extra += f' data-max-bytes="{target.max_bytes}"' if target.max_bytes else ""
        # a newline first: a browser drops one that opens a text area, so the text's own is kept
        return f"<textarea {attributes}{extra}>\n{escape(shown)}</textarea>"
    if kind in {"number", "integer"}:
        words = bounds_words(target.schema, kind)
        said = f' data-range-message="Enter {escape(words[:1].lower() + words[1:])}."'
        return f'<input type="number" {attributes}{_number_limits(target)}{said} value="{escape(shown)}">'
    if kind == "date-time":
        extra = ' step="1" data-format="date-time"'
        return f'<input type="datetime-local" {attributes}{extra} value="{escape(shown)}">'
    html_type = {"email": "email", "date": "date"}.get(kind, "text")
    extra = _text_limits(target) + ' autocomplete="off"'
    if isinstance(target.schema.get("pattern"), str):
        extra += f' data-pattern="{escape(target.schema["pattern"])}"'
    return f'<input type="{html_type}" {attributes}{extra} value="{escape(shown)}">'


def _options(target: Field, shown: str) -> str:
    placeholder = "Choose one" if target.required else "(none)"
    options = [f'<option value="">{placeholder}</option>'] if not shown or not target.required else []
    for index, choice in enumerate(target.choices):
        value = encode_choice(target, choice)
        selected = " selected" if value == shown else ""
        options.append(
            f'<option value="{escape(value)}"{selected}>{escape(_choice_label(target, index))}</option>'
        )
    return "".join(options)


def _choices(target: Field, filled: Filled) -> str:
    """Radios (one of an enum) or checkboxes (any of an array's enum), in a fieldset of their own."""
    element_id = target.element_id
    radio = target.control == "radios"
    shown = _shown(target, filled) if radio else ""
    ticked = _ticked(target, filled) if not radio else set()
    boxes = []
    for index, choice in enumerate(target.choices):
        value = escape(encode_choice(target, choice))
        option_id = f"{element_id}-{index}"
        if radio:
            name, checked = escape(target.name), value == escape(shown)
            required = (
                f' required data-empty-message="{escape(target.empty_text)}"' if target.refuses_empty else ""
            )
            kind = f'type="radio" name="{name}" value="{value}"{required}'
        else:
            checked = index in ticked
            kind = f'type="checkbox" name="{escape(target.choice_name(index))}" value="true"'
        boxes.append(
            f'<div class="choice"><input {kind} id="{option_id}"{" checked" if checked else ""}>'
            f'<label for="{option_id}">{escape(_choice_label(target, index))}</label></div>'
        )
    return (
        f'<fieldset class="field choices" id="{element_id}" data-path="{escape(target.path)}"'
        f"{_described(target, filled)}><legend>{_label_text(target)}</legend>{_hint(target)}"
        f"{_error(target, filled)}{''.join(boxes)}</fieldset>"
    )


def _checkbox(target: Field, filled: Filled) -> str:
    element_id = target.element_id
    checked = target.name in filled.values if filled.values is not None else target.default is True
    box = (
        f'<input type="checkbox" id="{element_id}" name="{escape(target.name)}" value="true"'
        f"{' checked' if checked else ''}{_described(target, filled)}>"
    )
    return (
        f'<div class="field" data-path="{escape(target.path)}">{_error(target, filled)}'
        f'<div class="check">{box}<label for="{element_id}">{escape(target.label)}</label></div>'
        f"{_hint(target)}</div>"
    )


def _shown(target: Field, filled: Filled) -> str:
    """The text a single-valued control shows: what was posted, else its default."""
    if filled.values is not None:
        return filled.values.get(target.name, "")
    default = target.default
    if default is NO_DEFAULT:
        return ""
    if target.control in {"radios", "select"}:
        return encode_choice(target, default) if _among(default, target.choices) else ""
    if default is None and target.control != "json":
        return ""
    if target.control == "json":
        return pretty_json(default)
    if target.control == "lines":
        items = default if isinstance(default, list) else []
        return "\n".join(item if isinstance(item, str) else json.dumps(item) for item in items)
    if target.control == "date-time" and isinstance(default, str):
        return utc_input_value(default)
    if isinstance(default, bool) or not isinstance(default, str | int | float):
        return ""
    return str(default)


def _among(value: Any, choices: tuple[Any, ...]) -> bool:
    """JSON equality: `1` is not `true`, though Python says so."""
    return any(type(value) is type(choice) and value == choice for choice in choices)


def utc_input_value(moment: str) -> str:
    """An RFC 3339 time as a datetime-local input shows it: in UTC, without the zone."""
    try:
        parsed = parse_rfc3339(moment)
    except ValueError:
        return ""
    return parsed.strftime("%Y-%m-%dT%H:%M:%S")


def _ticked(target: Field, filled: Filled) -> set[int]:
    if filled.values is not None:
        return {index for index in range(len(target.choices)) if target.choice_name(index) in filled.values}
    default = target.default if isinstance(target.default, list) else []
    return {index for index, choice in enumerate(target.choices) if _among(choice, tuple(default))}


def _choice_label(target: Field, index: int) -> str:
    if index < len(target.choice_labels):
        return target.choice_labels[index]
    choice = target.choices[index]
    return choice if isinstance(choice, str) else json.dumps(choice, ensure_ascii=False)


def _label_text(target: Field) -> str:
    optional = "" if target.required else ' <span class="optional">(optional)</span>'
    return escape(target.label) + optional


def _described(target: Field, filled: Filled) -> str:
    ids = []
    if hint_text(target):
        ids.append(f"{target.element_id}-hint")
    if filled.error(target):
        ids.append(f"{target.element_id}-error")
    invalid = ' aria-invalid="true"' if filled.error(target) else ""
    return (f' aria-describedby="{" ".join(ids)}"' if ids else "") + invalid


def _hint(target: Field) -> str:
    text = hint_text(target)
    return f'<p class="hint" id="{target.element_id}-hint">{escape(text)}</p>' if text else ""


def _error(target: Field, filled: Filled) -> str:
    message = filled.error(target)
    if not message:
        return ""
    return (
        f'<p class="error" id="{target.element_id}-error">'
        f'<span class="visually-hidden">Error: </span>{escape(message)}</p>'
    )


def _counter(target: Field) -> str:
    if not target.max_bytes:
        return ""
    return f'<p class="counter" data-counter-for="{target.element_id}" aria-live="polite"></p>'


def _text_limits(target: Field) -> str:
    limits = ""
    for keyword, attribute in (("minLength", "minlength"), ("maxLength", "maxlength")):
        value = target.schema.get(keyword)
        if isinstance(value, int) and not isinstance(value, bool):
            limits += f' {attribute}="{value}"'
    return limits


def _number_limits(target: Field) -> str:
    schema = target.schema
    limits = ' inputmode="numeric"' if target.control == "integer" else ' inputmode="decimal"'
    step = schema.get("multipleOf")
    if _is_number(step):
        limits += f' step="{step}"'
    else:
        limits += ' step="1"' if target.control == "integer" else ' step="any"'
    for keyword, attribute in (("minimum", "min"), ("maximum", "max")):
        if _is_number(schema.get(keyword)):
            limits += f' {attribute}="{schema[keyword]}"'
    return limits


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def hint_text(target: Field) -> str:
    """The field's own description, then what its constraints ask, in words."""
    parts = [target.hint] if target.hint else []
    said = describe(target)
    if said:
        parts.append(said)
    return " ".join(parts)
