"""An approval's page, filled in as a person would and posted as a browser posts it, read back as the
resume value the workflow gets: only the interrupt's actions, each with the fields it reads."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.page.filled_pages import ACCEPT_ONLY, APPROVAL, ARTIFACT, NOW, answer, page, posted, refused
from waitgate.page.form_resume import page_form_of


def test_only_the_interrupts_actions_are_offered() -> None:
    assert [a.value for a in page_form_of(APPROVAL).actions] == [
        "accept",
        "reject",
        "refine",
        "edit-accept",
        "ask",
    ]
    assert [a.value for a in page_form_of(ACCEPT_ONLY).actions] == ["accept", "reject"]
    html = page(ACCEPT_ONLY)
    assert 'value="refine"' not in html and "editedArtifactData" not in html and 'name="question"' not in html


def test_an_accept_is_the_pressed_button_the_comment_trimmed_and_the_time_it_arrived() -> None:
    typed = {"feedback": "  fine & well\r\n "}
    assert answer(APPROVAL, "accept", typed=typed) == {
        "action": "accept",
        "decidedAt": NOW,
        "feedback": "fine & well",
    }
    # an empty comment is no comment; the other sections' fields, posted too, are not read
    assert answer(APPROVAL, "reject", typed={"feedback": " ", "text": "ignored"}) == {
        "action": "reject",
        "decidedAt": NOW,
    }


@pytest.mark.parametrize(
    ("changes", "refine"),
    [
        ({"typed": {"text": " Fix it "}}, {"scope": "whole", "text": "Fix it"}),
        (
            {"typed": {"sectionPath": " notes ", "text": "Shorter"}, "ticked": {"scope=section"}},
            {"scope": "section", "text": "Shorter", "sectionPath": "notes"},
        ),
        (
            {"typed": {"text": "x"}, "ticked": {"scope=items", "itemIds[1]"}},
            {"scope": "items", "text": "x", "itemIds": ["c2"]},
        ),
    ],
)
def test_request_changes_builds_the_refine_feedback(changes: dict[str, Any], refine: dict[str, Any]) -> None:
    assert answer(APPROVAL, "refine", **changes) == {
        "action": "refine",
        "decidedAt": NOW,
        "refineFeedback": refine,
    }


def test_items_are_ids_typed_when_the_artifact_has_none_to_choose() -> None:
    plain = {**APPROVAL, "data": {**APPROVAL["data"], "artifact": "text"}}
    resume = answer(plain, "refine", typed={"itemIds": "a, b,,c ", "text": "x"}, ticked={"scope=items"})
    assert resume["refineFeedback"] == {"scope": "items", "text": "x", "itemIds": ["a", "b", "c"]}


@pytest.mark.parametrize(
    ("pressed", "changes", "path", "detail"),
    [
        ("refine", {"typed": {"text": " "}}, "resumeValue.refineFeedback.text", "Say what should change"),
        (
            "refine",
            {"typed": {"text": "x"}, "ticked": {"scope=section"}},
            "resumeValue.refineFeedback.sectionPath",
            "section",
        ),
        (
            "refine",
            {"typed": {"text": "x"}, "ticked": {"scope=items"}},
            "resumeValue.refineFeedback.itemIds",
            "items",
        ),
        (
            "refine",
            {"typed": {"text": "x"}, "unticked": {"scope"}},
            "resumeValue.refineFeedback.scope",
            "Choose one.",
        ),
        ("ask", {"typed": {"question": "  "}}, "resumeValue.feedback", "Write your question"),
        (
            "edit-accept",
            {"typed": {"editedArtifactData.changes": "many"}},
            "resumeValue.editedArtifactData.changes",
            "whole number",
        ),
        (
            "edit-accept",
            {"typed": {"editedArtifactData.items": "{"}},
            "resumeValue.editedArtifactData.items",
            "not valid JSON",
        ),
    ],
)
def test_an_approval_form_is_refused_naming_the_field(
    pressed: str, changes: dict[str, Any], path: str, detail: str
) -> None:
    refusal = refused(APPROVAL, posted(APPROVAL, pressed, **changes))
    assert refusal.extensions["path"] == path
    assert detail in refusal.detail


def test_a_question_is_its_own_required_field() -> None:
    resume = answer(APPROVAL, "ask", typed={"question": " Which DB? ", "feedback": "not read"})
    assert resume == {"action": "ask", "decidedAt": NOW, "feedback": "Which DB?"}


def test_accept_with_edits_sends_the_artifact_as_edited() -> None:
    untouched = answer(APPROVAL, "edit-accept")
    assert untouched["editedArtifactData"] == ARTIFACT
    edited = answer(
        APPROVAL,
        "edit-accept",
        typed={"editedArtifactData.version": "4.2.1", "editedArtifactData.notes": "a\r\nc"},
    )
    assert edited["editedArtifactData"] == {**ARTIFACT, "version": "4.2.1", "notes": "a\nc"}


def test_the_fields_and_buttons_are_those_of_this_interrupts_page() -> None:
    assert refused(ACCEPT_ONLY, {"action": "accept", "text": "x"}).extensions["path"] == "form:text"
    assert refused(ACCEPT_ONLY, {"action": "accept", "question": "?"}).detail.startswith(
        "The form has a field"
    )
    assert refused(ACCEPT_ONLY, {"action": "refine"}).extensions["path"] == "form:action"
    assert refused(APPROVAL, {"feedback": "no button"}).extensions["path"] == "form:action"
    assert (
        refused(APPROVAL, {"action": "accept", "decidedBy": "mallory"}).extensions["path"] == "form:decidedBy"
    )
