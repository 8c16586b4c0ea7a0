"""A posted form read back through its schema's fields: each control's text typed as its schema says,
empty as not given, every refusal naming the field's path — and nothing the schema refuses is ever
accepted (checked over the corpus with any text in every field)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from tests.unit.page.test_schema_form import BEYOND, DEFAULTED, SUPPORTED
from waitgate.errors import ValidationFailedError
from waitgate.page.schema_answers import ABSENT, read_value
from waitgate.page.schema_fields import Field, plan_schema
from waitgate.payloads.schema_cache import validator_for

ADDRESS = {
    "type": "object",
    "required": ["city", "zip"],
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "zip": {"type": "integer", "minimum": 1000, "maximum": 99999},
        "floor": {"type": "integer"},
        "note": {"type": "string"},
        "lift": {"type": "boolean"},
        "delivery": {
            "type": "object",
            "properties": {
                "on": {"type": "string", "format": "date"},
                "by": {"type": "string", "format": "email"},
            },
        },
    },
}


def plan(schema: Any) -> Field:
    return plan_schema(schema, name="v", path="resumeValue", label="Answer")


def refusal(schema: Any, form: dict[str, str]) -> tuple[str, str]:
    with pytest.raises(ValidationFailedError) as refused:
        read_value(plan(schema), form)
    return str(refused.value.extensions["path"]), refused.value.detail


def test_an_object_is_its_given_fields_typed_and_the_empty_optional_ones_left_out() -> None:
    form = {
        "v.city": "Köln",
        "v.zip": "50667",
        "v.floor": "",
        "v.note": "",
        "v.delivery.on": "",
        "v.delivery.by": "",
    }
    assert read_value(plan(ADDRESS), form) == {"city": "Köln", "zip": 50667, "lift": False}
    full = {
        **form,
        "v.floor": "-1",
        "v.lift": "true",
        "v.delivery.on": "2026-12-24",
        "v.note": " ring twice ",
    }
    assert read_value(plan(ADDRESS), full) == {
        "city": "Köln",
        "zip": 50667,
        "floor": -1,
        "note": " ring twice ",
        "lift": True,
        "delivery": {"on": "2026-12-24"},
    }


@pytest.mark.parametrize(
    ("change", "path", "says"),
    [
        ({"v.city": ""}, "resumeValue.city", "at least 1 character"),
        ({"v.zip": ""}, "resumeValue.zip", "Enter a whole number."),
        ({"v.zip": "12.5"}, "resumeValue.zip", "Enter a whole number."),
        ({"v.zip": "1e2"}, "resumeValue.zip", "from 1000 to 99999"),
        ({"v.zip": "0x10"}, "resumeValue.zip", "Enter a whole number."),
        ({"v.floor": "NaN"}, "resumeValue.floor", "Enter a whole number."),
        ({"v.lift": "on"}, "resumeValue.lift", "ticked box"),
        ({"v.delivery.on": "2026-02-30"}, "resumeValue.delivery.on", "real date"),
        ({"v.delivery.by": "ann"}, "resumeValue.delivery.by", "e-mail address"),
    ],
)
def test_each_refusal_names_the_field(change: dict[str, str], path: str, says: str) -> None:
    form = {"v.city": "Köln", "v.zip": "50667", **change}
    assert refusal(ADDRESS, form)[0] == path
    assert says in refusal(ADDRESS, form)[1]


@pytest.mark.parametrize(
    ("schema", "text", "value"),
    [
        ({"type": "number"}, "3", 3),
        ({"type": "number"}, "-0.25", -0.25),
        ({"type": "number"}, "2.0", 2),
        ({"type": "integer"}, "4.0", 4),
        ({"type": "string", "format": "date-time"}, "2026-12-24T18:30", "2026-12-24T18:30:00Z"),
        ({"type": "string", "format": "date-time"}, "2026-12-24T18:30:05.5", "2026-12-24T18:30:05.500Z"),
        ({"type": "string", "format": "date-time"}, "2026-12-24T18:30:05Z", "2026-12-24T18:30:05Z"),
        ({"type": "array", "items": {"type": "integer"}}, " 1\r\n\r\n2 \r\n", [1, 2]),
        ({"type": "array", "items": {"type": "string"}}, "api\r\n web\r\n", ["api", "web"]),
        ({"type": "array", "items": {"type": "number"}}, "2.0\n1.5", [2, 1.5]),
        ({"type": "string", "maxLength": 500}, "a\r\nb", "a\nb"),
        ({"oneOf": [{"type": "array"}]}, ' [1, "ü"] ', [1, "ü"]),
        ({"enum": [1, "1", None]}, "null", None),
        ({"enum": [1, "1", None]}, '"1"', "1"),
        ({"type": "string"}, "", ""),
    ],
)
def test_a_controls_text_is_the_value_its_schema_types(schema: Any, text: str, value: Any) -> None:
    assert read_value(plan(schema), {"v": text}) == value


@pytest.mark.parametrize(
    ("schema", "text", "says"),
    [
        ({"type": "string", "pattern": "^[A-Z]{3}$"}, "euro", "the pattern ^[A-Z]{3}$"),
        ({"type": "string", "maxLength": 2}, "abc", "at most 2 characters"),
        ({"type": "string", "minLength": 3}, "ab", "at least 3 characters"),
        ({"type": "string", "format": "date"}, "next week", "real date"),
        ({"type": "number", "exclusiveMinimum": 0}, "0", "more than 0"),
        ({"type": "number", "maximum": 1}, "1.5", "at most 1"),
        ({"type": "number", "multipleOf": 0.5}, "0.3", "multiple of 0.5"),
        ({"type": "number"}, "1e400", "finite"),
        ({"type": "array", "items": {"type": "integer"}}, "1\nx", "Line 2 is not a number"),
        ({"type": "array", "items": {"type": "integer"}}, "1.5", "Line 1 is not a whole number"),
        ({"type": "array", "items": {"type": "string"}, "minItems": 2}, "a", "Give at least 2."),
        ({"type": "array", "items": {"type": "string"}, "uniqueItems": True}, "a\na", "non-unique"),
        ({"enum": ["eu", "us"]}, "mars", "not one of the choices"),
        ({"enum": ["eu", "us"]}, "", "Choose one."),
        ({"type": "string", "format": "date-time"}, "tomorrow", "real date and time"),
        ({"oneOf": [{"type": "array"}]}, "{", "not valid JSON"),
        ({"oneOf": [{"type": "array"}]}, "", "Write a value, as JSON."),
        ({"oneOf": [{"type": "array"}]}, "{}", "is not of type 'array'"),
    ],
)
def test_what_the_schema_refuses_is_refused(schema: Any, text: str, says: str) -> None:
    path, detail = refusal(schema, {"v": text})
    assert path.startswith("resumeValue") and says in detail, detail


def test_checkboxes_post_one_name_each_and_read_as_the_chosen_in_order() -> None:
    schema = {"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 2}
    assert read_value(plan(schema), {"v[2]": "true", "v[0]": "true"}) == ["a", "c"]
    assert read_value(plan(schema), {}) == []
    assert refusal(schema, {"v[0]": "true", "v[1]": "true", "v[2]": "true"})[1] == "Choose at most 2."
    assert refusal(schema, {"v[0]": "yes"})[1] == "A ticked box is sent as true."


def test_an_optional_object_left_empty_is_left_out() -> None:
    schema = {
        "type": "object",
        "properties": {
            "inner": {"type": "object", "properties": {"b": {"type": "boolean"}, "t": {"type": "string"}}}
        },
    }
    assert read_value(plan(schema), {"v.inner.t": ""}) == {}
    assert read_value(plan(schema), {"v.inner.b": "true"}) == {"inner": {"b": True}}


CORPUS = [
    *(schema for schema, _ in SUPPORTED.values()),
    *BEYOND.values(),
    *(s for s, _ in DEFAULTED.values()),
    ADDRESS,
]
TEXTS = st.sampled_from(
    ["", " ", "true", "0", "1", "-3", "2.5", "1e3", "a", "ü", "null", "[]", "{}", '"1"', "eu"]
) | st.text(max_size=12)


def names_of(field: Field) -> list[str]:
    return sorted(field.names)


@settings(max_examples=examples(400), deadline=None)
@given(data=st.data(), schema=st.sampled_from(CORPUS))
def test_nothing_the_schema_refuses_is_accepted(data: st.DataObject, schema: Any) -> None:
    # Given any text in any of the form's fields
    field = plan(schema)
    form = data.draw(st.dictionaries(st.sampled_from(names_of(field)), TEXTS, max_size=8))
    # When it is read back, Then either a 400 naming a field of the form, or a value the schema accepts
    try:
        value = read_value(field, form)
    except ValidationFailedError as error:
        assert str(error.extensions["path"]).startswith("resumeValue")
        return
    assert value is not ABSENT
    assert validator_for(schema).is_valid(value), (schema, form, value)
