"""resolveInterruptByToken — POST /interrupts/{token}; the signed token is the credential.

Same body rules and races as the run surface (one resolve path); the token's `sub` is the decider.
The body is `{resumeValue}` as JSON, or the human page's own form (urlencoded: the browser posts it);
a client that prefers HTML gets the answer as a page (what was recorded; for a refused form, the form
again with the error beside its field).
Check order: token (401) -> expiry (410) -> intent (403) -> body (400) -> state (404, 409, 410).
The path holds the token: the event is never logged.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.http.form_body import is_form
from waitgate.http.negotiation import prefers_html
from waitgate.http.resolver import new_token_app, path_parameter
from waitgate.http.responses import TOKEN_RESPONSE_HEADERS, answer_page_response, answer_response
from waitgate.http.router import Response
from waitgate.http.token_resolve import resolve_json_by_token
from waitgate.run.answers import Answer
from waitgate.wiring.composition import keyring, resolve_dependencies
from waitgate.wiring.observability import observed

logger = Logger()
app = new_token_app()


@app.post("/interrupts/<token>")
def resolve(token: str) -> Response[str]:
    event, link = app.current_event.raw_event, path_parameter(app, "token")
    html = prefers_html(app.current_event.headers.get("accept"))
    if html and is_form(event):  # the human page, posted by the browser
        from waitgate.http.page_form import form_answer_page

        return form_answer_page(link, event, keyring(), resolve_dependencies())
    answer = answer_to(event, link)
    if html:
        return answer_page_response(answer)
    return answer_response(answer, headers=TOKEN_RESPONSE_HEADERS)


def answer_to(event: dict[str, Any], link: str) -> Answer:
    if is_form(event):  # the page's form, from a program that prefers JSON
        from waitgate.http.page_form import resolve_form_by_token

        return resolve_form_by_token(link, event, keyring(), resolve_dependencies()).resolved.answer
    return resolve_json_by_token(link, event, keyring(), resolve_dependencies())


@logger.inject_lambda_context(clear_state=True, log_event=False)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
