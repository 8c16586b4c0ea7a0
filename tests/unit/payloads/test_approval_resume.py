"""Approval resume values: the shape, the conditional members and the allowed actions."""

from __future__ import annotations

from typing import Any

import pytest

from waitgate.errors import ValidationFailedError
from waitgate.payloads import APPROVAL_ACTIONS, parse_approval_resume

AT = "2026-09-11T10:00:00Z"

VALID: list[tuple[str, dict[str, Any]]] = [
    ("accept bare", {"action": "accept", "decidedAt": AT}),
    ("accept with feedback and decider", {"action": "accept", "feedback": "ok",
                                          "decidedAt": AT, "decidedBy": "alice"}),
    ("reject", {"action": "reject", "feedback": "no", "decidedAt": "2026-09-11t10:00:00.123z"}),
    ("ask", {"action": "ask", "feedback": "why?", "decidedAt": "2026-09-11T12:00:00+02:00"}),
    ("refine whole", {"action": "refine", "refineFeedback": {"scope": "whole"},
                      "decidedAt": AT}),
    ("refine section", {"action": "refine", "decidedAt": AT, "refineFeedback": {
        "scope": "section", "sectionPath": "2.1", "tags": ["tone"], "text": "shorter"}}),
    ("refine items", {"action": "refine", "decidedAt": AT,
                      "refineFeedback": {"scope": "items", "itemIds": ["a", "b"]}}),
    ("edit-accept object", {"action": "edit-accept", "editedArtifactData": {"x": 1},
                            "decidedAt": AT}),
    ("edit-accept scalar", {"action": "edit-accept", "editedArtifactData": "new text",
                            "decidedAt": AT}),
]  # fmt: skip

INVALID: list[tuple[str, object, str, str]] = [
    # (rule, resume value, expected path, words the detail contains)
    ("not an object", ["accept"], "resumeValue", "dictionary"),
    ("unknown member", {"action": "accept", "decidedAt": AT, "comment": "x"},
     "resumeValue.comment", "Extra inputs"),
    ("snake_case member", {"action": "accept", "decided_at": AT}, "resumeValue.decidedAt",
     "required"),
    ("unknown action", {"action": "approve", "decidedAt": AT}, "resumeValue.action", "accept"),
    ("decidedAt missing", {"action": "accept"}, "resumeValue.decidedAt", "required"),
    ("decidedAt without offset", {"action": "accept", "decidedAt": "2026-09-11T10:00:00"},
     "resumeValue.decidedAt", "RFC 3339"),
    ("decidedAt a date only", {"action": "accept", "decidedAt": "2026-09-11"},
     "resumeValue.decidedAt", "RFC 3339"),
    ("decidedAt impossible", {"action": "accept", "decidedAt": "2026-02-30T10:00:00Z"},
     "resumeValue.decidedAt", "real date"),
    ("decidedAt a number", {"action": "accept", "decidedAt": 1757584800},
     "resumeValue.decidedAt", "string"),
    ("decidedBy null", {"action": "accept", "decidedAt": AT, "decidedBy": None},
     "resumeValue.decidedBy", "null"),
    ("refine without refineFeedback", {"action": "refine", "decidedAt": AT},
     "resumeValue.refineFeedback", "needs refineFeedback"),
    ("section without sectionPath", {"action": "refine", "decidedAt": AT,
                                     "refineFeedback": {"scope": "section"}},
     "resumeValue.refineFeedback.sectionPath", "needs sectionPath"),
    ("items without itemIds", {"action": "refine", "decidedAt": AT,
                               "refineFeedback": {"scope": "items"}},
     "resumeValue.refineFeedback.itemIds", "needs itemIds"),
    ("unknown scope", {"action": "refine", "decidedAt": AT,
                       "refineFeedback": {"scope": "page"}},
     "resumeValue.refineFeedback.scope", "whole"),
    ("edit-accept without data", {"action": "edit-accept", "decidedAt": AT},
     "resumeValue.editedArtifactData", "needs editedArtifactData"),
    ("edit-accept with null data", {"action": "edit-accept", "decidedAt": AT,
                                    "editedArtifactData": None},
     "resumeValue.editedArtifactData", "needs editedArtifactData"),
    ("ask without a question", {"action": "ask", "decidedAt": AT},
     "resumeValue.feedback", "needs feedback: the question"),
    ("ask with a blank question", {"action": "ask", "feedback": "  ", "decidedAt": AT},
     "resumeValue.feedback", "needs feedback: the question"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "value"), VALID, ids=[name for name, _ in VALID])
def test_valid_resume_values_parse(name: str, value: dict[str, Any]) -> None:
    # Given a well-formed decision / When parsed with every action allowed
    resume = parse_approval_resume(value, APPROVAL_ACTIONS)
    # Then the model carries it
    assert resume.action == value["action"]
    assert resume.decided_at == value["decidedAt"]


@pytest.mark.parametrize(("rule", "value", "path", "words"), INVALID,
                         ids=[case[0] for case in INVALID])  # fmt: skip
def test_invalid_resume_values_name_the_failing_rule(rule: str, value: object, path: str, words: str) -> None:
    # Given a decision breaking one rule / When parsed
    with pytest.raises(ValidationFailedError) as caught:
        parse_approval_resume(value, APPROVAL_ACTIONS)
    # Then the error is a 400 validation_error naming the member and the rule
    assert caught.value.extensions["path"] == path
    assert caught.value.detail.startswith(path)
    assert words in caught.value.detail
    assert caught.value.status == 400


def test_action_outside_the_interrupts_actions_is_refused() -> None:
    # Given an interrupt offering accept and reject only
    allowed = ["accept", "reject"]
    # When someone tries to refine
    with pytest.raises(ValidationFailedError) as caught:
        parse_approval_resume(
            {"action": "refine", "refineFeedback": {"scope": "whole"}, "decidedAt": AT}, allowed
        )
    # Then it is refused, naming the action and what is allowed
    assert caught.value.extensions["path"] == "resumeValue.action"
    assert "'refine'" in caught.value.detail and "accept, reject" in caught.value.detail


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ({"action": "refine", "decidedAt": AT}, "'refine'"),  # not "needs refineFeedback"
        ({"action": "accpet", "decidedAt": AT}, "'accpet'"),  # not the protocol's five
        ({"action": 5, "decidedAt": AT}, "5"),
    ],
    ids=["refine not offered", "a typo", "not a string"],
)
def test_an_action_this_interrupt_does_not_offer_is_told_in_its_terms(value: object, shown: str) -> None:
    # Given an interrupt offering accept and reject only
    with pytest.raises(ValidationFailedError) as caught:
        parse_approval_resume(value, ["accept", "reject"])
    # Then the error names the action sent and this interrupt's actions, nothing else
    assert (
        caught.value.detail
        == f"resumeValue.action: {shown} is not one of this interrupt's actions (accept, reject)"
    )
    assert caught.value.extensions["path"] == "resumeValue.action"


def test_models_can_be_built_from_python_names() -> None:
    # Given python code building a resume with snake_case names / Then it is accepted
    from waitgate.payloads import ApprovalResume

    resume = ApprovalResume(action="accept", decided_at=AT, decided_by="bob")
    assert resume.model_dump(by_alias=True, exclude_unset=True) == {
        "action": "accept", "decidedAt": AT, "decidedBy": "bob"
    }  # fmt: skip
