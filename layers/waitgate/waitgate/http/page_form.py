"""resolveInterruptByToken from the human page's own form (a browser with scripts off posts it).

The same resolve path as a JSON body, one step longer: the form's fields mean something only for the
interrupt they answer (which button, which questions, of which types), so that interrupt is read
before the fields become a resume value (`page.form_resume`). Order: the token (401, 410, 403) ->
the form as a body (413, 400) -> the interrupt's state (404, 409, 410) -> the fields against it
(400) -> the resolve.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.answers import Answer
from waitgate.clock import rfc3339
from waitgate.http.form_body import form_fields
from waitgate.page.form_resume import resume_value_from_form
from waitgate.service.inspect_interrupt import inspect_by_token
from waitgate.service.resolve_interrupt import ResolveDependencies
from waitgate.service.token_access import KeyFor, TokenDependencies, resolve_by_token
from waitgate.tokens import KeySource


def resolve_form_by_token(
    token: str, event: Mapping[str, Any], keyring: KeySource, deps: ResolveDependencies, key_for: KeyFor
) -> Answer:
    def resume_value() -> Any:
        form = form_fields(event)
        view = inspect_by_token(token, TokenDependencies(deps.store, keyring, deps.clock))
        return resume_value_from_form(view.payload, form, rfc3339(deps.clock.now()))

    return resolve_by_token(token, resume_value, keyring, deps, key_for)
