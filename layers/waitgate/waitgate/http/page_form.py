"""resolveInterruptByToken from the human page's own form (the browser posts it, scripts on or off).

The same resolve path as a JSON body (`http.token_resolve`), in the same order as its lines: the token
(401, 410, 403) -> the form as a body (413, 400) -> its Idempotency-Key (400) -> the resolve, from its
one read of the interrupt: its state (404, 409, 410), who may decide (403), then the fields against
it (400: they mean something only for the interrupt they answer — which button, which fields, of
which types — `page.form_resume`), the value's limits (413).

A browser (it prefers HTML) gets pages: a refused answer is the form again, as the person filled it,
with the error beside the field it names; a vote or a question that leaves the request open is the
page again, saying so (and, for a vote, that it waits for the others); a decision is the answer page.
Each is drawn from the interrupt as the resolve read or left it: no second read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from waitgate.errors import InterruptExpiredError
from waitgate.http.form_body import form_fields
from waitgate.http.idempotency import idempotency_ref
from waitgate.http.link_page import expired_link_page, page_context
from waitgate.http.responses import answer_page_response, page_response
from waitgate.http.router import Response
from waitgate.http.token_resolve import OPERATION
from waitgate.page import Refusal, Resolution, answer_page, interrupt_page
from waitgate.page.form_resume import resume_value_from_form
from waitgate.ports import Clock
from waitgate.run.clock import rfc3339
from waitgate.run.records import InterruptRecord
from waitgate.service.inspect_interrupt import InterruptView
from waitgate.service.resolve_interrupt import Resolved, ResolveDependencies, resolve_shown
from waitgate.service.token_access import TokenDependencies, authorized, token_caller, token_command
from waitgate.tokens import KeySource, TokenClaims


@dataclass(frozen=True)
class PostedForm:
    """A form posted through a link, once resolved: the link's claims, the fields, what came of it."""

    claims: TokenClaims
    fields: Mapping[str, str]
    resolved: Resolved

    def view(self, record: InterruptRecord) -> InterruptView:
        return InterruptView(record, self.claims)


def resolve_form_by_token(
    token: str, event: Mapping[str, Any], keyring: KeySource, deps: ResolveDependencies
) -> PostedForm:
    claims = authorized(token, keyring, deps)
    fields = form_fields(event)
    request = {"interruptId": claims.interrupt_id, "form": fields}
    ref = idempotency_ref(event, OPERATION, token_caller(claims), request)
    command = replace(token_command(claims, None), resume_from=_read_against(fields, deps.clock))
    return PostedForm(claims, fields, resolve_shown(command, ref, deps))


def _read_against(fields: Mapping[str, str], clock: Clock) -> Callable[[InterruptRecord], Any]:
    """The resume value the fields stand for, once the resolve read the interrupt they answer."""

    def resume_from(record: InterruptRecord) -> Any:
        return resume_value_from_form(record.payload, fields, rfc3339(clock.now()))

    return resume_from


def form_answer_page(
    token: str, event: Mapping[str, Any], keyring: KeySource, deps: ResolveDependencies
) -> Response[str]:
    """The page a browser gets for its posted form. A form posted after its link expired, or after the
    deadline, gets the expired link's page (the inbox, a fresh link, or what was decided), as opening
    the link would."""
    try:
        posted = resolve_form_by_token(token, event, keyring, deps)
    except InterruptExpiredError:
        return _expired(token, keyring, deps)
    answer, record = posted.resolved.answer, posted.resolved.interrupt
    if answer.status == 410 and answer.problem is not None:  # kept under its Idempotency-Key
        return _expired(token, keyring, deps)
    if record is None:  # a replay, a kept refusal: the answer as it was given
        return answer_page_response(answer)
    if answer.problem is not None:  # refused for what it holds: the form again, as it was filled
        refusal = Refusal(posted.fields, answer.problem.path, answer.problem.detail)
        page = interrupt_page(page_context(posted.view(record), deps.clock.now(), refusal))
        return page_response(answer.status, page)
    if answer.status == 202:
        return _still_open(posted, record, deps)
    resolution = Resolution(
        record.kind,
        record.data,
        record.resume_value,
        rfc3339(deps.clock.now()),
        posted.view(record).principal,
    )
    page = answer_page(200, answer.value, resolution, deps.clock.now(), run_gone=posted.resolved.run_gone)
    return page_response(200, page)


def _expired(token: str, keyring: KeySource, deps: ResolveDependencies) -> Response[str]:
    return page_response(410, expired_link_page(token, TokenDependencies(deps.store, keyring, deps.clock)))


def _still_open(posted: PostedForm, record: InterruptRecord, deps: ResolveDependencies) -> Response[str]:
    """The page again, as the vote or the question left it: a vote's page says it is recorded, and
    what it waits for, in place of the form; a question's says it was sent."""
    asked = posted.fields.get("action") == "ask"
    notice = "Your question was sent. The request stays open: you can still decide." if asked else ""
    page = interrupt_page(page_context(posted.view(record), deps.clock.now(), notice=notice))
    return page_response(202, page)
