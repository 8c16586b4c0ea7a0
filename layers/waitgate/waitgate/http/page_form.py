"""resolveInterruptByToken from the human page's own form (the browser posts it, scripts on or off).

The same resolve path as a JSON body, one step longer: the form's fields mean something only for the
interrupt they answer (which button, which fields, of which types), so that interrupt is read
before the fields become a resume value (`page.form_resume`). Order: the token (401, 410, 403) ->
the form as a body (413, 400) -> the interrupt's state (404, 409, 410) -> the fields against it
(400) -> the resolve.

A browser (it prefers HTML) gets pages: a refused answer is the form again, as the person filled it,
with the error beside the field it names; a vote or a question that leaves the request open is the
page again, saying so (and, for a vote, that it waits for the others); a decision is the answer page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools.event_handler import Response

from waitgate.errors import InterruptExpiredError, PayloadTooLargeError, ValidationFailedError, WaitgateError
from waitgate.http.form_body import form_fields
from waitgate.http.link_page import expired_link_page, page_context
from waitgate.http.responses import answer_page_response, page_response
from waitgate.page import Refusal, Resolution, answer_page, interrupt_page
from waitgate.page.form_resume import resume_value_from_form
from waitgate.run.answers import Answer
from waitgate.run.clock import rfc3339
from waitgate.run.problem_details import PROBLEM_CONTENT_TYPE
from waitgate.run.records import InterruptRecord
from waitgate.service.deliver_resolution import PARKED
from waitgate.service.inspect_interrupt import InterruptView, inspect_by_token
from waitgate.service.resolve_interrupt import ResolveDependencies
from waitgate.service.token_access import KeyFor, TokenDependencies, resolve_by_token
from waitgate.tokens import KeySource


@dataclass
class _Posted:
    """What the form resolve read on its way: the fields, and the interrupt they answer."""

    form: Mapping[str, str] | None = None
    view: InterruptView | None = None


def resolve_form_by_token(
    token: str,
    event: Mapping[str, Any],
    keyring: KeySource,
    deps: ResolveDependencies,
    key_for: KeyFor,
    posted: _Posted | None = None,
) -> Answer:
    seen = posted if posted is not None else _Posted()

    def resume_value() -> Any:
        seen.form = form_fields(event)
        seen.view = inspect_by_token(token, TokenDependencies(deps.store, keyring, deps.clock))
        return resume_value_from_form(seen.view.payload, seen.form, rfc3339(deps.clock.now()))

    return resolve_by_token(token, resume_value, keyring, deps, key_for)


def form_answer_page(
    token: str, event: Mapping[str, Any], keyring: KeySource, deps: ResolveDependencies, key_for: KeyFor
) -> Response[str]:
    """The page a browser gets for its posted form. A form posted after its link expired, or after the
    deadline, gets the expired link's page (the inbox, a fresh link, or what was decided), as opening
    the link would."""
    seen = _Posted()
    try:
        answer = resolve_form_by_token(token, event, keyring, deps, key_for, seen)
    except (ValidationFailedError, PayloadTooLargeError) as error:
        if seen.form is None or seen.view is None:
            raise
        return _form_again(seen, error.status, error.detail, str(error.extensions.get("path", "")), deps)
    except InterruptExpiredError:
        return _expired(token, keyring, deps)
    if answer.status == 410 and answer.content_type == PROBLEM_CONTENT_TYPE:
        return _expired(token, keyring, deps)
    if answer.content_type == PROBLEM_CONTENT_TYPE and seen.form is not None and seen.view is not None:
        problem = json.loads(answer.body)
        if problem.get("code") in {"validation_error", "payload_too_large"}:
            return _form_again(
                seen, answer.status, str(problem.get("detail", "")), str(problem.get("path", "")), deps
            )
    if answer.status == 202 and seen.view is not None and seen.form is not None:
        return _still_open(token, seen, keyring, deps, answer)
    if answer.status == 200 and seen.view is not None:
        record = seen.view.record
        body = json.loads(answer.body)
        resolution = Resolution(
            record.kind, record.data, body.get("resumeValue"), rfc3339(deps.clock.now()), seen.view.principal
        )
        page = answer_page(200, body, resolution, deps.clock.now(), run_gone=_run_gone(record, deps))
        return page_response(200, page)
    return answer_page_response(answer)


def _expired(token: str, keyring: KeySource, deps: ResolveDependencies) -> Response[str]:
    return page_response(410, expired_link_page(token, TokenDependencies(deps.store, keyring, deps.clock)))


def _run_gone(record: InterruptRecord, deps: ResolveDependencies) -> bool:
    """Whether the engine said the run no longer waits: the resolve delivered inline, so the item says
    (one read, on the page's path only; a delivery left to the outbox still reaches a waiting run)."""
    current = deps.store.load(record.run, record.node_id).interrupt
    return (
        current is not None
        and current.interrupt_id == record.interrupt_id
        and current.delivery_outcome in PARKED
    )


def _form_again(
    seen: _Posted, status: int, detail: str, path: str, deps: ResolveDependencies
) -> Response[str]:
    assert seen.form is not None and seen.view is not None
    refusal = Refusal(seen.form, path, detail)
    return page_response(status, interrupt_page(page_context(seen.view, deps.clock.now(), refusal)))


def _still_open(
    token: str, seen: _Posted, keyring: KeySource, deps: ResolveDependencies, answer: Answer
) -> Response[str]:
    """The page again, as it now is: a vote is recorded (it waits for the others), a question sent."""
    assert seen.form is not None
    asked = seen.form.get("action") == "ask"
    # a vote's page says it is recorded, and what it waits for, in place of the form
    notice = "Your question was sent. The request stays open: you can still decide." if asked else ""
    try:
        view = inspect_by_token(token, TokenDependencies(deps.store, keyring, deps.clock))
    except WaitgateError:  # decided or ended in between: the plain answer page says it was recorded
        return answer_page_response(answer)
    return page_response(202, interrupt_page(page_context(view, deps.clock.now(), notice=notice)))
