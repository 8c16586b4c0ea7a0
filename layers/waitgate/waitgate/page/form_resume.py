"""The resume value a human page's form stands for, when the browser posted it itself (scripts off).

The inverse of `page.fields`, and the same rules as the page's script (`submit.html`): an approval's
pressed button is the action, `decidedAt` is when the form arrived, an empty comment is no comment,
`refine` needs what should change, `edit-accept` the edited artifact as JSON; a clarification's
answers are typed by their questions' schemas; other kinds send their JSON answer box. The fields are
closed: each is one this page renders for this interrupt, sent once. Pure: the resume value is then
validated like any other (`service.resume_rules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.errors import ValidationFailedError
from waitgate.page.fields import ANSWER_FIELD, answer_type
from waitgate.payloads import json_rules

SUBMIT = "submit"  # the value of the one button of a non-approval form
REFINE_FIELDS = frozenset({"scope", "sectionPath", "itemIds", "text"})


def resume_value_from_form(payload: Mapping[str, Any], form: Mapping[str, str], decided_at: str) -> Any:
    """The resume value of `form` for the interrupt `payload`; 400 naming the field otherwise."""
    data = payload.get("data")
    data = data if isinstance(data, dict) else {}
    kind = payload.get("kind")
    if kind == "approval":
        return _approval(data, form, decided_at)
    if kind == "clarification":
        return _clarification(data, form)
    _closed(form, {"action", "resumeValue"})
    _submitted(form, {SUBMIT})
    return _json_field(form, "resumeValue", "resumeValue", "The answer")


def _approval(data: dict[str, Any], form: Mapping[str, str], decided_at: str) -> dict[str, Any]:
    actions = [action for action in data.get("actions", []) if isinstance(action, str)]
    allowed = {"action", "feedback"}
    if "refine" in actions:
        allowed |= REFINE_FIELDS
    if "edit-accept" in actions:
        allowed.add("editedArtifactData")
    _closed(form, allowed)
    action = _submitted(form, set(actions))
    resume: dict[str, Any] = {"action": action, "decidedAt": decided_at}
    feedback = form.get("feedback", "").strip()
    if feedback:
        resume["feedback"] = feedback
    if action == "ask" and not feedback:
        raise _refused("Write your question in the comment box.", "resumeValue.feedback")
    if action == "refine":
        resume["refineFeedback"] = _refine_feedback(form)
    if action == "edit-accept":
        resume["editedArtifactData"] = _json_field(
            form, "editedArtifactData", "resumeValue.editedArtifactData", "The edited artifact"
        )
    return resume


def _refine_feedback(form: Mapping[str, str]) -> dict[str, Any]:
    refine: dict[str, Any] = {"scope": form.get("scope", "").strip() or "whole"}
    changes = form.get("text", "").strip()
    if not changes:
        raise _refused("Say what should change before requesting changes.", "resumeValue.refineFeedback.text")
    refine["text"] = changes
    if refine["scope"] == "section":
        section = form.get("sectionPath", "").strip()
        if not section:
            raise _refused("Name the section to change.", "resumeValue.refineFeedback.sectionPath")
        refine["sectionPath"] = section
    if refine["scope"] == "items":
        items = [item.strip() for item in form.get("itemIds", "").split(",") if item.strip()]
        if not items:
            raise _refused("List the item ids to change.", "resumeValue.refineFeedback.itemIds")
        refine["itemIds"] = items
    return refine


def _clarification(data: dict[str, Any], form: Mapping[str, str]) -> dict[str, Any]:
    questions = [q for q in data.get("questions", []) if isinstance(q, dict) and isinstance(q.get("id"), str)]
    fields = {ANSWER_FIELD + q["id"]: q for q in questions}
    _closed(form, {"action", *fields})
    _submitted(form, {SUBMIT})
    answers: dict[str, Any] = {}
    for field, question in fields.items():
        path = f"resumeValue.answers.{question['id']}"
        kind = answer_type(question)
        if kind == "boolean":
            answers[question["id"]] = _checked(form, field, path)
        elif field not in form:
            raise _refused("Answer every question.", path)
        elif kind in {"number", "integer"}:
            answers[question["id"]] = _number(form[field], path)
        elif kind == "json":
            answers[question["id"]] = _json_field(form, field, path, "An answer")
        else:
            answers[question["id"]] = form[field]
    return {"answers": answers}


def _checked(form: Mapping[str, str], field: str, path: str) -> bool:
    """A checkbox is sent (as `true`) when it is ticked and not at all otherwise."""
    if field not in form:
        return False
    if form[field] != "true":
        raise _refused("A ticked box is sent as true.", path)
    return True


def _number(text: str, path: str) -> int | float:
    if not text.strip():
        raise _refused("Answer every question.", path)
    try:
        value = json_rules.loads(text.strip())
    except ValidationFailedError as error:
        raise _refused("The answer is not a number.", path) from error
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _refused("The answer is not a number.", path)
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _json_field(form: Mapping[str, str], field: str, path: str, label: str) -> Any:
    if field not in form:
        raise _refused(f"{label} is missing.", path)
    try:
        return json_rules.loads(form[field])
    except ValidationFailedError as error:
        # json_rules speaks of "the body": here it is one field of the form
        reason = error.detail.removeprefix("The body is not valid JSON")
        detail = f"{label} is not valid JSON{reason}" if reason != error.detail else f"{label}: {reason}"
        raise _refused(detail, path) from error


def _closed(form: Mapping[str, str], allowed: set[str]) -> None:
    for name in form:
        if name not in allowed:
            shown = name[:64]
            raise _refused(f"The form has a field this page does not send: {shown!r}.", f"form:{shown}")


def _submitted(form: Mapping[str, str], choices: set[str]) -> str:
    """The value of the button that was pressed: one of this page's."""
    action = form.get("action")
    if action is None:
        raise _refused("Press one of the page's buttons to answer.", "form:action")
    if action not in choices:
        raise _refused(f"{action[:64]!r} is not one of this page's buttons.", "form:action")
    return action


def _refused(detail: str, path: str) -> ValidationFailedError:
    return ValidationFailedError(detail, path=path)
