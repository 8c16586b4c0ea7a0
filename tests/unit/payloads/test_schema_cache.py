"""Each JSON Schema is compiled once, whatever its key order, and failures name the path."""

from __future__ import annotations

import pytest

from waitgate.errors import ValidationFailedError
from waitgate.payloads import schema_cache, validate_against_schema


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    schema_cache.clear_cache()


def test_same_schema_is_compiled_once_even_with_another_key_order() -> None:
    # Given one schema written twice with different key order
    first = {"type": "object", "required": ["amount"]}
    second = {"required": ["amount"], "type": "object"}
    # When values are validated against both, several times
    for _ in range(3):
        validate_against_schema({"amount": 1}, first, "resumeValue")
        validate_against_schema({"amount": 2}, second, "resumeValue")
    # Then one compilation served them all
    info = schema_cache.cache_info()
    assert (info.misses, info.hits, info.currsize) == (1, 5, 1)


def test_failure_names_the_json_path_under_where() -> None:
    # Given a schema for a list of amounts
    schema = {"type": "object", "properties": {"items": {"type": "array",
              "items": {"type": "number"}}}}  # fmt: skip
    # When the second item is a string
    with pytest.raises(ValidationFailedError) as caught:
        validate_against_schema({"items": [1, "2"]}, schema, "resumeValue")
    # Then the detail and path say where
    assert caught.value.extensions["path"] == "resumeValue.items[1]"
    assert caught.value.detail.startswith("resumeValue.items[1]: '2' is not of type 'number'")


def test_root_failure_uses_where_alone() -> None:
    with pytest.raises(ValidationFailedError) as caught:
        validate_against_schema("x", {"type": "integer"}, "resumeValue")
    assert caught.value.extensions["path"] == "resumeValue"


def test_request_time_check_warms_the_cache_for_resolve_time() -> None:
    # Given a payload whose resumeSchema was checked when the interrupt was requested
    from waitgate.payloads import parse_interrupt_payload

    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    parse_interrupt_payload({"kind": "custom", "key": "k", "data": {"customKind": "x"},
                             "resumeSchema": schema})  # fmt: skip
    # When the resume value is validated / Then no second compilation happens
    validate_against_schema({"ok": True}, schema, "resumeValue")
    assert schema_cache.cache_info().misses == 1


def test_invalid_schema_is_reported_not_cached() -> None:
    # Given a schema with a broken regex / When checked / Then the problem names its place
    problem = schema_cache.json_schema_problem({"pattern": "(oops"})
    assert problem is not None and "schema.pattern" in problem
    assert schema_cache.cache_info().currsize == 0
