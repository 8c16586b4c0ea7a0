"""Hostile resume values: whatever JSON a resolver sends, the validators answer with success or a
ValidationFailedError (400 validation_error naming a path), never another exception (a 500)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from waitgate.errors import ValidationFailedError
from waitgate.payloads import (
    APPROVAL_ACTIONS,
    ClarificationQuestion,
    parse_approval_resume,
    parse_clarification_resume,
    validate_against_schema,
)

FUZZ = settings(
    max_examples=examples(300), deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
DATE_TIMES = ["2026-11-30T10:00:00Z", "2026-11-30t10:00:00+02:00", "2026-02-30T10:00:00Z", "yesterday", ""]
approval_members = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from([*APPROVAL_ACTIONS, "explode"]) | json_values,
        "decidedAt": st.sampled_from(DATE_TIMES) | json_values,
        "decidedBy": st.text() | json_values,
        "feedback": st.text() | json_values,
        "refineFeedback": st.fixed_dictionaries(
            {},
            optional={
                "scope": st.sampled_from(["whole", "section", "items", "all"]) | json_values,
                "sectionPath": json_values,
                "itemIds": st.lists(st.text()) | json_values,
                "tags": json_values,
                "text": json_values,
            },
        )
        | json_values,
        "editedArtifactData": json_values,
    },
)
approval_values = (
    approval_members | st.dictionaries(st.text(max_size=12), json_values, max_size=3) | json_values
)
SCHEMAS: list[dict[str, Any]] = [
    {"type": "integer", "minimum": 0},
    {"type": "string", "pattern": "^[a-z]+$", "maxLength": 8},
    {
        "type": "object",
        "required": ["amount"],
        "properties": {"amount": {"type": "number", "exclusiveMinimum": 0}},
        "additionalProperties": False,
    },
    {"type": "array", "items": {"enum": ["a", "b"]}, "uniqueItems": True},
    {
        "$defs": {"money": {"type": "object", "properties": {"cents": {"type": "integer"}}}},
        "anyOf": [{"$ref": "#/$defs/money"}, {"type": "null"}],
    },
    {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "boolean"}]},
    {"not": {"const": 42}},
    {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "minProperties": 1},
]
QUESTIONS = [
    ClarificationQuestion.model_validate({"id": "budget", "question": "Budget?", "schema": SCHEMAS[0]}),
    ClarificationQuestion.model_validate({"id": "code", "question": "Code?", "schema": SCHEMAS[1]}),
    ClarificationQuestion.model_validate({"id": "note", "question": "Anything else?"}),
]
answers = st.dictionaries(
    st.sampled_from(["budget", "code", "note", "other"]) | st.text(max_size=8), json_values
)
clarification_values = (
    st.fixed_dictionaries({"answers": answers})
    | st.fixed_dictionaries({"answers": answers}, optional={"extra": json_values})
    | json_values
)


@FUZZ
@given(value=approval_values, actions=st.lists(st.sampled_from(APPROVAL_ACTIONS), min_size=1, unique=True))
def test_an_approval_resume_is_accepted_or_refused_with_a_validation_error(
    value: Any, actions: list[str]
) -> None:
    # Given any JSON value and any non-empty set of allowed actions
    # When it is parsed as an approval resume
    # Then it is accepted with an allowed action, or refused with a path into resumeValue
    try:
        resume = parse_approval_resume(value, actions)
    except ValidationFailedError as error:
        assert str(error.extensions.get("path", "resumeValue")).startswith("resumeValue")
        return
    assert resume.action in actions


@FUZZ
@given(value=clarification_values)
def test_a_clarification_resume_is_accepted_or_refused_with_a_validation_error(value: Any) -> None:
    try:
        resume = parse_clarification_resume(value, QUESTIONS)
    except ValidationFailedError as error:
        assert str(error.extensions.get("path", "resumeValue")).startswith("resumeValue")
        return
    assert set(resume.answers) == {"budget", "code", "note"}


@FUZZ
@given(value=json_values, schema=st.sampled_from(SCHEMAS))
def test_a_value_against_a_declared_schema_passes_or_fails_with_its_path(
    value: Any, schema: dict[str, Any]
) -> None:
    try:
        validate_against_schema(value, schema, "resumeValue")
    except ValidationFailedError as error:
        assert str(error.extensions["path"]).startswith("resumeValue")
        assert error.detail.startswith(str(error.extensions["path"]))
