"""resolveInterruptByToken with a JSON body `{resumeValue}`, its checks in the profile's order as its
lines: the token (401, 410, 403) -> the body (413, 415, 400) -> its Idempotency-Key (400) -> the
interrupt and run state (404, 409, 410), who may decide (403), the value (400). The form the human
page posts takes the same steps (`http.page_form`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.http.body import json_body, require_object_body
from waitgate.http.idempotency import idempotency_ref
from waitgate.run.answers import Answer
from waitgate.service.resolve_interrupt import ResolveDependencies
from waitgate.service.token_access import authorized, resolve_by_token, token_caller, token_request
from waitgate.tokens import KeySource

OPERATION = "resolveInterruptByToken"


def resolve_json_by_token(
    token: str, event: Mapping[str, Any], keyring: KeySource, deps: ResolveDependencies
) -> Answer:
    claims = authorized(token, keyring, deps)
    resume_value = require_object_body(json_body(event))
    ref = idempotency_ref(event, OPERATION, token_caller(claims), token_request(claims, resume_value))
    return resolve_by_token(claims, resume_value, ref, deps)
