"""The one JSON-Schema-to-form renderer, over a corpus of schemas: each keyword it understands gives
its control (with the schema's constraints as attributes and hints), anything beyond gives a JSON
editor, and what the page shows filled with a schema's defaults reads back as those defaults."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from tests.support.html_form import controls_of, submitted_fields
from waitgate.page.decision_form import Action, Answers, PageForm, render_form
from waitgate.page.schema_answers import read_value
from waitgate.page.schema_controls import Filled, render_field
from waitgate.page.schema_fields import FIELD_BUDGET, Field, plan_schema
from waitgate.page.value_schema import schema_of_value


def plan(schema: Any, **options: Any) -> Field:
    return plan_schema(schema, name="resumeValue", path="resumeValue", label="Answer", **options)


def controls(field: Field) -> list[tuple[str, str]]:
    return [(f.path, f.control) for f in field.walk()]


def page_of(field: Field) -> str:
    """The field in a form of its own, with one button (what the page renders)."""
    form = PageForm((Action("submit", "Send"),), lambda _, answers, __: answers.value(field), (field,))
    return f'<form id="decide">{render_form(form)}</form>'


SUPPORTED = {
    "string": ({"type": "string"}, "text"),
    "string, lengths": ({"type": "string", "minLength": 2, "maxLength": 5}, "text"),
    "string, long": ({"type": "string", "maxLength": 2000}, "textarea"),
    "string, pattern": ({"type": "string", "pattern": "^[A-Z]{3}$"}, "text"),
    "string, format date": ({"type": "string", "format": "date"}, "date"),
    "string, format date-time": ({"type": "string", "format": "date-time"}, "date-time"),
    "string, format email": ({"type": "string", "format": "email"}, "email"),
    "string, another format": ({"type": "string", "format": "uri"}, "text"),
    "enum, few": ({"enum": ["eu", "us"]}, "radios"),
    "enum, many": ({"type": "string", "enum": list("abcdefg")}, "select"),
    "enum, of JSON values": ({"enum": [1, "1", None, True]}, "radios"),
    "integer, bounds": ({"type": "integer", "minimum": 1, "maximum": 9}, "integer"),
    "number, exclusive bounds": ({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}, "number"),
    "number, multipleOf": ({"type": "number", "multipleOf": 0.5}, "number"),
    "boolean": ({"type": "boolean"}, "checkbox"),
    "array of enums": (
        {"type": "array", "items": {"enum": ["a", "b", "c"]}, "uniqueItems": True},
        "checkboxes",
    ),
    "array of strings": (
        {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
        "lines",
    ),
    "array of integers": ({"type": "array", "items": {"type": "integer", "minimum": 0}}, "lines"),
    "type as a one-item list": ({"type": ["integer"]}, "integer"),
    "object": ({"type": "object", "properties": {"a": {"type": "string"}}}, "group"),
    "object without its type": ({"properties": {"a": {"type": "boolean"}}, "required": ["a"]}, "group"),
    "annotations": (
        {"type": "string", "title": "T", "$comment": "c", "examples": ["x"], "deprecated": False},
        "text",
    ),
}
BEYOND = {
    "anything": {},
    "oneOf": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "anyOf": {"anyOf": [{"type": "string"}]},
    "allOf": {"allOf": [{"type": "string"}]},
    "$ref": {"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"},
    "const": {"const": "x"},
    "not": {"type": "string", "not": {"const": ""}},
    "if/then": {"type": "string", "if": {"minLength": 3}, "then": {"maxLength": 5}},
    "nullable type": {"type": ["string", "null"]},
    "null": {"type": "null"},
    "array of objects": {
        "type": "array",
        "items": {"type": "object", "properties": {"a": {"type": "string"}}},
    },
    "tuple": {"type": "array", "prefixItems": [{"type": "string"}]},
    "array, contains": {"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}},
    "array of dates": {"type": "array", "items": {"type": "string", "format": "date"}},
    "object without properties": {"type": "object"},
    "a map": {"type": "object", "additionalProperties": {"type": "integer"}},
    "patternProperties": {"type": "object", "properties": {"a": {}}, "patternProperties": {"^x": {}}},
    "required names no property": {"type": "object", "properties": {"a": {}}, "required": ["b"]},
    "minProperties": {"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1},
    "string with an unknown keyword": {"type": "string", "contentMediaType": "text/html"},
    "enum with a type list": {"enum": ["a", None], "type": ["string", "null"]},
    "empty enum": {"enum": []},
}


@pytest.mark.parametrize(("schema", "control"), SUPPORTED.values(), ids=SUPPORTED.keys())
def test_each_understood_keyword_gives_its_control(schema: dict[str, Any], control: str) -> None:
    # Given a schema of keywords the form understands / Then its root has that control
    assert plan(schema).control == control


@pytest.mark.parametrize("schema", BEYOND.values(), ids=BEYOND.keys())
def test_anything_beyond_is_a_json_editor(schema: dict[str, Any]) -> None:
    # Given a schema the form cannot say / Then a JSON editor, checked before it is sent
    field = plan(schema)
    assert field.control == "json"
    html = render_field(field)
    assert "data-json" in html and "Written as JSON; checked before it is sent." in html


def test_only_the_part_beyond_is_a_json_editor_and_nesting_has_a_limit() -> None:
    # Given an object whose one property is beyond the form, and another nested five levels deep
    deep: dict[str, Any] = {"type": "string"}
    for key in "edcba":
        deep = {"type": "object", "properties": {key: deep}}
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "either": {"oneOf": [{}]}, "deep": deep},
    }
    # Then that property alone is JSON; past four levels of objects, the rest is JSON
    assert controls(plan(schema)) == [
        ("resumeValue", "group"),
        ("resumeValue.name", "text"),
        ("resumeValue.either", "json"),
        ("resumeValue.deep", "group"),
        ("resumeValue.deep.a", "group"),
        ("resumeValue.deep.a.b", "group"),
        ("resumeValue.deep.a.b.c", "json"),
    ]


def test_a_form_past_its_budget_of_fields_is_one_json_editor() -> None:
    # Given an object of more properties than a form may post
    schema = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(FIELD_BUDGET + 1)}}
    # Then one JSON editor (a form holds at most 100 fields)
    assert plan(schema).control == "json"
    assert plan(schema, budget=FIELD_BUDGET + 1).control == "group"


class Labels(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[str, dict[str, str | None]] = {}
        self.label_for: set[str] = set()
        self.legends = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids[str(attributes["id"])] = {"tag": tag, **attributes}
        if tag == "label" and attributes.get("for"):
            self.label_for.add(str(attributes["for"]))
        self.legends += tag == "legend"


@pytest.mark.parametrize(
    "schema", [*SUPPORTED.values(), *((s, "json") for s in BEYOND.values())], ids=[*SUPPORTED, *BEYOND]
)
def test_every_control_has_its_label_and_every_hint_is_tied_to_it(schema: Any) -> None:
    html = page_of(plan(schema[0]))
    parsed = Labels()
    parsed.feed(html)
    for control in controls_of(html):
        if control.tag == "button":
            continue
        element_id = str(control.attributes["id"])
        assert element_id in parsed.label_for, (element_id, html)
        for described in str(control.attributes.get("aria-describedby") or "").split():
            assert described in parsed.ids


def test_constraints_are_attributes_and_words() -> None:
    integer = render_field(plan({"type": "integer", "minimum": 1, "maximum": 9, "description": "Replicas."}))
    assert (
        'type="number"' in integer and 'step="1"' in integer and 'min="1"' in integer and 'max="9"' in integer
    )
    assert "Replicas. A whole number from 1 to 9." in integer and "required" in integer
    text = render_field(plan({"type": "string", "minLength": 2, "maxLength": 5}))
    assert 'minlength="2"' in text and 'maxlength="5"' in text and "2 to 5 characters." in text
    pattern = render_field(plan({"type": "string", "pattern": "^[A-Z]{3}$"}))
    assert 'data-pattern="^[A-Z]{3}$"' in pattern
    multiple = render_field(plan({"type": "number", "multipleOf": 0.5, "exclusiveMinimum": 0}))
    assert 'step="0.5"' in multiple and "more than 0, a multiple of 0.5" in multiple
    lines = render_field(plan({"type": "array", "items": {"type": "integer"}, "minItems": 1}))
    assert "One per line, each a whole number. Give at least 1." in lines
    boxes = render_field(plan({"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 1}))
    assert boxes.count('type="checkbox"') == 2 and "Choose at most 1." in boxes
    when = render_field(plan({"type": "string", "format": "date-time"}))
    assert 'type="datetime-local"' in when and "Date and time, in UTC." in when
    assert 'type="email"' in render_field(plan({"type": "string", "format": "email"}))
    assert 'type="date"' in render_field(plan({"type": "string", "format": "date"}))


def test_a_select_offers_no_choice_until_one_is_made_and_optional_fields_say_so() -> None:
    select = render_field(plan({"enum": list("abcdefg")}))
    assert select.index('<option value="">Choose one</option>') < select.index('<option value="a">')
    optional = plan(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
            "required": ["b"],
        }
    )
    html = render_field(optional)
    assert html.count("(optional)") == 1 and ">A <span" in html


DEFAULTED = {
    "text": ({"type": "string", "default": "<b>ü</b>"}, "<b>ü</b>"),
    "text area, multi-line": ({"type": "string", "default": "\nfirst\nsecond\n"}, "\nfirst\nsecond\n"),
    "date": ({"type": "string", "format": "date", "default": "2026-12-24"}, "2026-12-24"),
    "date-time": (
        {"type": "string", "format": "date-time", "default": "2026-12-24T18:30:00Z"},
        "2026-12-24T18:30:00Z",
    ),
    "email": ({"type": "string", "format": "email", "default": "ann@example.com"}, "ann@example.com"),
    "integer": ({"type": "integer", "default": 3}, 3),
    "number": ({"type": "number", "default": 0.25}, 0.25),
    "boolean, true": ({"type": "boolean", "default": True}, True),
    "boolean, false": ({"type": "boolean", "default": False}, False),
    "radios": ({"enum": ["eu", "us"], "default": "us"}, "us"),
    "radios of JSON": ({"enum": [1, "1", None], "default": None}, None),
    "select": ({"enum": list("abcdefg"), "default": "f"}, "f"),
    "checkboxes": ({"type": "array", "items": {"enum": ["a", "b", "c"]}, "default": ["a", "c"]}, ["a", "c"]),
    "lines": ({"type": "array", "items": {"type": "string"}, "default": ["api", "web"]}, ["api", "web"]),
    "json": ({"oneOf": [{"type": "object"}], "default": {"x": [1, 2]}}, {"x": [1, 2]}),
    "object": (
        {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "size": {"type": "integer"},
                "dry": {"type": "boolean"},
            },
            "default": {"name": "n", "size": 2, "dry": True},
        },
        {"name": "n", "size": 2, "dry": True},
    ),
}


@pytest.mark.parametrize(("schema", "value"), DEFAULTED.values(), ids=DEFAULTED.keys())
def test_a_form_filled_with_its_defaults_reads_back_as_them(schema: dict[str, Any], value: Any) -> None:
    # Given the form of a schema with a default / When a browser posts it untouched
    field = plan(schema)
    posted = submitted_fields(page_of(field), "submit")
    # Then the value read back is the default
    assert read_value(field, posted) == value


def test_an_artifact_reads_back_unchanged_from_the_editor_made_of_it() -> None:
    # Given an artifact of texts, numbers, flags, lists and nested objects
    artifact = {
        "version": "4.2.0",
        "changes": 37,
        "ratio": 0.5,
        "draft": False,
        "notes": "line one\nline two",
        "tags": ["db", "api"],
        "owners": {"lead": "ann", "ids": [1, 2]},
        "history": [{"at": "x"}],
        "nothing": None,
    }
    field = plan(schema_of_value(artifact), default=artifact)
    # Then every part has a control, the rest JSON, and posting it untouched gives the artifact back
    assert dict(controls(field)) == {
        "resumeValue": "group",
        "resumeValue.version": "text",
        "resumeValue.changes": "integer",
        "resumeValue.ratio": "number",
        "resumeValue.draft": "checkbox",
        "resumeValue.notes": "textarea",
        "resumeValue.tags": "lines",
        "resumeValue.owners": "group",
        "resumeValue.owners.lead": "text",
        "resumeValue.owners.ids": "lines",
        "resumeValue.history": "json",
        "resumeValue.nothing": "json",
    }
    assert read_value(field, submitted_fields(page_of(field), "submit")) == artifact
    # And an edit is the artifact as changed
    edited = submitted_fields(page_of(field), "submit", typed={"resumeValue.changes": "38"})
    assert Answers(edited).value(field)["changes"] == 38


def test_posted_values_and_errors_replace_the_defaults() -> None:
    field = plan(
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "default": 1}, "b": {"type": "boolean", "default": True}},
        }
    )
    number = field.children[0]
    html = render_field(field, Filled({"resumeValue.n": "x"}, {number.name: "Enter a whole number."}))
    assert 'value="x"' in html and 'aria-invalid="true"' in html and "checked" not in html
    assert f'<p class="error" id="{number.element_id}-error">' in html
    assert f'aria-describedby="{number.element_id}-hint {number.element_id}-error"' in html
