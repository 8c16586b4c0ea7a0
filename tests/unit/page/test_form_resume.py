"""The human page's form, posted by a browser with scripts off, read back as the resume value the
page's script would have sent (pure: no store, no HTTP)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitgate.errors import ValidationFailedError
from waitgate.page.form_resume import resume_value_from_form
from waitgate.payloads import json_rules

NOW = "2026-12-01T10:00:00.000Z"
APPROVAL = {
    "kind": "approval",
    "key": "k",
    "data": {
        "artifactId": "a",
        "artifactType": "doc",
        "title": "Ship?",
        "actions": ["accept", "reject", "refine", "edit-accept", "ask"],
    },
}
ACCEPT_ONLY = {**APPROVAL, "data": {**APPROVAL["data"], "actions": ["accept", "reject"]}}
CLARIFICATION = {
    "kind": "clarification",
    "key": "k",
    "data": {
        "questions": [
            {"id": "region", "question": "Where?", "schema": {"enum": ["eu", "us"]}},
            {"id": "size", "question": "Size?", "schema": {"enum": [1, 2, None]}},
            {"id": "dry", "question": "Dry run?", "schema": {"type": "boolean"}},
            {"id": "count", "question": "How many?", "schema": {"type": "integer"}},
            {"id": "ratio", "question": "Ratio?", "schema": {"type": "number"}},
            {"id": "tags", "question": "Tags?", "schema": {"type": "array"}},
            {"id": "why", "question": "Why?"},
        ]
    },
}
ANSWERS = {
    "action": "submit",
    "answers.region": "eu",
    "answers.size": "2",
    "answers.count": "3",
    "answers.ratio": "0.5",
    "answers.tags": '["a", "b"]',
    "answers.why": "  because  ",
}
CUSTOM = {"kind": "custom", "key": "k", "data": {"customKind": "acme.label"}}


def refused(payload: dict[str, Any], form: dict[str, str]) -> ValidationFailedError:
    with pytest.raises(ValidationFailedError) as refusal:
        resume_value_from_form(payload, form, NOW)
    return refusal.value


def test_an_accept_is_the_pressed_button_the_comment_trimmed_and_the_time_it_arrived() -> None:
    # When Accept is pressed with a comment, Then the resume value is what the script would send
    resume = resume_value_from_form(APPROVAL, {"action": "accept", "feedback": "  fine & well\r\n "}, NOW)
    assert resume == {"action": "accept", "decidedAt": NOW, "feedback": "fine & well"}
    # And an empty comment is no comment; the refine and edit fields the page always sends are ignored
    empty = {"action": "reject", "feedback": " ", "scope": "whole", "text": "", "editedArtifactData": "{}"}
    assert resume_value_from_form(APPROVAL, empty, NOW) == {"action": "reject", "decidedAt": NOW}


@pytest.mark.parametrize(
    ("form", "refine"),
    [
        ({"scope": "whole", "text": " Fix it "}, {"scope": "whole", "text": "Fix it"}),
        (
            {"scope": "section", "sectionPath": " intro ", "text": "Shorter"},
            {"scope": "section", "text": "Shorter", "sectionPath": "intro"},
        ),
        (
            {"scope": "items", "itemIds": "a, b,,c ", "text": "x"},
            {"scope": "items", "text": "x", "itemIds": ["a", "b", "c"]},
        ),
        ({"text": "no scope sent"}, {"scope": "whole", "text": "no scope sent"}),
    ],
)
def test_request_changes_builds_the_refine_feedback(form: dict[str, str], refine: dict[str, Any]) -> None:
    resume = resume_value_from_form(APPROVAL, {"action": "refine", **form}, NOW)
    assert resume == {"action": "refine", "decidedAt": NOW, "refineFeedback": refine}


@pytest.mark.parametrize(
    ("form", "path", "detail"),
    [
        ({"action": "refine", "text": " "}, "resumeValue.refineFeedback.text", "Say what should change"),
        (
            {"action": "refine", "scope": "section", "text": "x"},
            "resumeValue.refineFeedback.sectionPath",
            "section",
        ),
        (
            {"action": "refine", "scope": "items", "itemIds": ", ,", "text": "x"},
            "resumeValue.refineFeedback.itemIds",
            "item ids",
        ),
        ({"action": "ask", "feedback": ""}, "resumeValue.feedback", "Write your question"),
        (
            {"action": "edit-accept", "editedArtifactData": "{"},
            "resumeValue.editedArtifactData",
            "is not valid JSON: ",
        ),
        ({"action": "edit-accept", "editedArtifactData": "NaN"}, "resumeValue.editedArtifactData", "finite"),
        ({"action": "edit-accept"}, "resumeValue.editedArtifactData", "missing"),
        ({"feedback": "no button"}, "form:action", "Press one of the page's buttons"),
        ({"action": "approve"}, "form:action", "not one of this page's buttons"),
        ({"action": "accept", "decidedBy": "mallory"}, "form:decidedBy", "field this page does not send"),
    ],
)
def test_an_approval_form_is_refused_as_the_script_would_refuse_it(
    form: dict[str, str], path: str, detail: str
) -> None:
    refusal = refused(APPROVAL, form)
    assert refusal.extensions["path"] == path
    assert detail in refusal.detail


def test_the_fields_are_those_of_this_interrupts_page() -> None:
    # Given an approval that allows neither refine nor edit-accept
    # When a form sends the refine text or an edited artifact anyway, Then 400 naming the field
    assert refused(ACCEPT_ONLY, {"action": "accept", "text": "x"}).extensions["path"] == "form:text"
    assert refused(ACCEPT_ONLY, {"action": "accept", "editedArtifactData": "{}"}).detail.startswith(
        "The form has a field"
    )
    assert refused(ACCEPT_ONLY, {"action": "refine"}).extensions["path"] == "form:action"


def test_clarification_answers_are_typed_by_their_questions_schemas() -> None:
    # When every question is answered (the boolean left unticked)
    resume = resume_value_from_form(CLARIFICATION, ANSWERS, NOW)
    # Then text stays text, JSON choices and numbers are typed, an unticked box is false
    assert resume == {
        "answers": {
            "region": "eu",
            "size": 2,
            "dry": False,
            "count": 3,
            "ratio": 0.5,
            "tags": ["a", "b"],
            "why": "  because  ",
        }
    }
    ticked = resume_value_from_form(
        CLARIFICATION, {**ANSWERS, "answers.dry": "true", "answers.count": "4.0"}, NOW
    )
    assert (ticked["answers"]["dry"], ticked["answers"]["count"]) == (True, 4)
    assert (
        resume_value_from_form(CLARIFICATION, {**ANSWERS, "answers.size": "null"}, NOW)["answers"]["size"]
        is None
    )


@pytest.mark.parametrize(
    ("change", "path", "detail"),
    [
        ({"answers.count": ""}, "resumeValue.answers.count", "Answer every question"),
        ({"answers.count": "three"}, "resumeValue.answers.count", "not a number"),
        ({"answers.ratio": "true"}, "resumeValue.answers.ratio", "not a number"),
        ({"answers.ratio": "Infinity"}, "resumeValue.answers.ratio", "not a number"),
        ({"answers.dry": "on"}, "resumeValue.answers.dry", "ticked"),
        ({"answers.tags": "[1,"}, "resumeValue.answers.tags", "not valid JSON"),
        ({"answers.other": "x"}, "form:answers.other", "field this page does not send"),
        ({"action": "accept"}, "form:action", "not one of this page's buttons"),
    ],
)
def test_a_clarification_form_names_the_question_it_refuses(
    change: dict[str, str], path: str, detail: str
) -> None:
    refusal = refused(CLARIFICATION, {**ANSWERS, **change})
    assert (refusal.extensions["path"], detail in refusal.detail) == (path, True)


def test_a_missing_answer_is_refused_unless_it_is_a_checkbox() -> None:
    without_why = {name: value for name, value in ANSWERS.items() if name != "answers.why"}
    assert refused(CLARIFICATION, without_why).extensions["path"] == "resumeValue.answers.why"


def test_other_kinds_send_their_json_answer_box() -> None:
    form = {"action": "submit", "resumeValue": '{"printed": true, "label": "ü"}'}
    assert resume_value_from_form(CUSTOM, form, NOW) == {"printed": True, "label": "ü"}
    assert refused(CUSTOM, {"action": "submit", "resumeValue": "1e400"}).extensions["path"] == "resumeValue"
    assert refused(CUSTOM, {"action": "submit"}).extensions["path"] == "resumeValue"
    assert refused(CUSTOM, {"resumeValue": "1"}).extensions["path"] == "form:action"


FIELD_NAMES = st.sampled_from(
    ["action", "feedback", "scope", "sectionPath", "itemIds", "text", "editedArtifactData", "resumeValue"]
    + [f"answers.{q['id']}" for q in CLARIFICATION["data"]["questions"]]  # type: ignore[index]
) | st.text(max_size=8)
FIELD_VALUES = st.sampled_from(
    ["accept", "refine", "edit-accept", "ask", "submit", "section", "items", "true", "3", "[1]", "{", "NaN"]
) | st.text(max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    payload=st.sampled_from([APPROVAL, ACCEPT_ONLY, CLARIFICATION, CUSTOM]),
    form=st.dictionaries(FIELD_NAMES, FIELD_VALUES, max_size=8),
)
def test_any_form_is_a_resume_value_of_json_or_a_400(payload: dict[str, Any], form: dict[str, str]) -> None:
    # Given any fields at all, When they are read back, Then a 400 or a value the JSON rules accept
    try:
        resume = resume_value_from_form(payload, form, NOW)
    except ValidationFailedError:
        return
    json_rules.check_value(resume)
