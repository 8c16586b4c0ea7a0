"""The JSON every surface takes: I-JSON with a 64-level nesting limit counted before parsing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from waitgate.errors import ValidationFailedError
from waitgate.payloads.json_rules import MAX_DEPTH, check_value, encoded_size, loads

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec="utf-8")),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=examples(300), deadline=None)
@given(value=json_values)
def test_any_i_json_value_reads_back_as_itself(value: Any) -> None:
    # Given any JSON value of Unicode strings and finite numbers / When its text is read / Then it is itself
    assert loads(json.dumps(value)) == value
    assert loads(json.dumps(value, ensure_ascii=False).encode("utf-8")) == value


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def test_the_depth_limit_is_exact() -> None:
    assert loads(nested(MAX_DEPTH)) is not None
    with pytest.raises(ValidationFailedError, match="64 levels"):
        loads(nested(MAX_DEPTH + 1))


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(["[" * 500, "{" * 500]),  # brackets inside strings do not nest
        json.dumps(['\\"[[[[', '\\\\"' + "[" * 300]),  # nor after escaped quotes or backslashes
        json.dumps({"a": '"' * 70 + "[" * 70}),
    ],
)
def test_brackets_in_strings_do_not_count(text: str) -> None:
    assert loads(text) == json.loads(text)


def test_a_deep_body_is_refused_before_it_is_parsed() -> None:
    # Given a body nested far past what a recursive parser can take
    with pytest.raises(ValidationFailedError) as refused:
        loads('{"resumeValue": ' + nested(50_000) + "}")
    assert refused.value.extensions["path"] == "$"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"a": NaN}', "NaN"),
        ('{"a": -Infinity}', "Infinity"),
        ('{"a": 1e400}', "finite"),
        ('{"a": "\\ud800"}', "surrogate"),
        ('{"\\udfff": 1}', "surrogate"),
        ('{"a": 1, "a": 2}', "twice"),
        ("9" * 5000, "digits"),
        (b"\xff\xfe", "UTF-8"),
        ('{"a": ', "not valid JSON"),
    ],
)
def test_what_is_not_i_json_is_a_400_saying_why(text: str | bytes, says: str) -> None:
    with pytest.raises(ValidationFailedError) as refused:
        loads(text)
    assert says in refused.value.detail


def test_a_parsed_value_is_held_to_the_same_rules() -> None:
    # Given values a Lambda runtime's parser lets through
    for value, where in [
        ({"a": [float("nan")]}, "$.a[0]"),
        ({"b": {"c": "\ud800"}}, "$.b.c"),
        ({"deep": json.loads(nested(MAX_DEPTH))}, "$.deep" + "[0]" * (MAX_DEPTH - 1)),
    ]:
        with pytest.raises(ValidationFailedError) as refused:
            check_value(value)
        assert refused.value.extensions["path"] == where


def test_encoded_size_counts_utf8_bytes_of_compact_json() -> None:
    assert encoded_size({"é": "€"}) == len('{"é":"€"}'.encode())
