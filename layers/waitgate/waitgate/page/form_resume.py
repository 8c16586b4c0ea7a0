"""The resume value a human page's form stands for, posted by the browser itself (the page's script
only checks it first): the pressed button (`action`) and the fields of that page's `PageForm`,
read back through the same fields the page rendered. `decidedAt` is when the form arrived.

The fields are closed: each is one this page renders for this interrupt, sent once. Pure: the resume
value is then validated like any other (`run.resume_values`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.errors import ValidationFailedError
from waitgate.page.approval_form import approval_form
from waitgate.page.decision_form import ACTION_FIELD, Answers, PageForm
from waitgate.page.kind_forms import kind_form


def page_form_of(payload: Mapping[str, Any]) -> PageForm:
    """The form the page of this InterruptPayload renders."""
    if payload.get("kind") == "approval":
        data = payload.get("data")
        return approval_form(data if isinstance(data, dict) else {})
    return kind_form(dict(payload))


def resume_value_from_form(payload: Mapping[str, Any], form: Mapping[str, str], decided_at: str) -> Any:
    """The resume value of `form` for the interrupt `payload`; 400 naming the field otherwise."""
    page_form = page_form_of(payload)
    _closed(form, page_form.names)
    action = _submitted(form, {action.value for action in page_form.actions})
    return page_form.build(action, Answers(form), decided_at)


def _closed(form: Mapping[str, str], allowed: frozenset[str]) -> None:
    for name in form:
        if name not in allowed:
            shown = name[:64]
            raise _refused(f"The form has a field this page does not send: {shown!r}.", f"form:{shown}")


def _submitted(form: Mapping[str, str], choices: set[str]) -> str:
    """The value of the button that was pressed: one of this page's."""
    action = form.get(ACTION_FIELD)
    if action is None:
        raise _refused("Press one of the page's buttons to answer.", "form:action")
    if action not in choices:
        raise _refused(f"{action[:64]!r} is not one of this page's buttons.", "form:action")
    return action


def _refused(detail: str, path: str) -> ValidationFailedError:
    return ValidationFailedError(detail, path=path)
