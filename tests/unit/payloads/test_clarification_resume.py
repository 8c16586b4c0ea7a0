"""Clarification answers: every question answered, nothing else, each per its schema."""

from __future__ import annotations

import pytest

from waitgate.errors import ValidationFailedError
from waitgate.payloads import ClarificationQuestion, parse_clarification_resume

QUESTIONS = [
    ClarificationQuestion.model_validate(
        {"id": "budget", "question": "Budget?", "schema": {"type": "integer", "minimum": 0}}
    ),
    ClarificationQuestion.model_validate({"id": "note", "question": "Anything else?"}),
]


def test_answers_matching_their_schemas_are_accepted() -> None:
    # Given answers for both questions / When parsed / Then they are kept as given
    resume = parse_clarification_resume({"answers": {"budget": 100, "note": None}}, QUESTIONS)
    assert resume.answers == {"budget": 100, "note": None}


@pytest.mark.parametrize(
    ("value", "path", "words"),
    [
        ({"answers": {"budget": 1}}, "resumeValue.answers.note", "'note' is not answered"),
        ({"answers": {"budget": -1, "note": "x"}}, "resumeValue.answers.budget", "minimum"),
        ({"answers": {"budget": "1", "note": "x"}}, "resumeValue.answers.budget", "integer"),
        ({"answers": {"budget": 1, "note": "", "color": "red"}},
         "resumeValue.answers.color", "no question has id 'color'"),
        ({"answers": {"budget": 1, "note": ""}, "extra": 1}, "resumeValue.extra", "Extra"),
        ({}, "resumeValue.answers", "required"),
        ("budget=1", "resumeValue", "dictionary"),
    ],
    ids=["unanswered", "below minimum", "wrong type", "unknown id", "extra member",
         "no answers", "not an object"],
)  # fmt: skip
def test_bad_answers_name_the_question(value: object, path: str, words: str) -> None:
    # Given answers that break one rule / When parsed
    with pytest.raises(ValidationFailedError) as caught:
        parse_clarification_resume(value, QUESTIONS)
    # Then the detail and path name the question (or member)
    assert caught.value.extensions["path"] == path
    assert words in caught.value.detail


def test_nested_answer_failure_names_the_json_path_inside_the_answer() -> None:
    # Given a question whose answer is an object with a typed member
    question = ClarificationQuestion.model_validate({
        "id": "address", "question": "Where?",
        "schema": {"type": "object", "properties": {"zip": {"type": "string"}}},
    })  # fmt: skip
    # When the member has the wrong type
    with pytest.raises(ValidationFailedError) as caught:
        parse_clarification_resume({"answers": {"address": {"zip": 75001}}}, [question])
    # Then the path goes down into the answer
    assert caught.value.extensions["path"] == "resumeValue.answers.address.zip"
