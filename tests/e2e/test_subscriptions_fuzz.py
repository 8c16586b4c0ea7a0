"""Hostile input over real HTTP on the subscription routes (docs/webhooks-out.md): schemathesis drives
each of them against the local stack with a bearer that holds subscriptions:manage, and checks every
answer against the served document, as tests/e2e/test_api_fuzz.py does for the others (whose bearer
lacks this scope, so it sees only their 403s).

The bearer is of a tenant of its own, which no run belongs to: the subscriptions the fuzzer makes (to
https URLs it invents) never receive an event, so nothing is ever sent to them."""

from __future__ import annotations

from typing import Any

import pytest
from schemathesis import GenerationMode

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.schema_fuzz import EACH_MODE, each_operation, fuzz, served_schema
from waitgate.http.openapi.subscription_routes import SUBSCRIPTION_OPERATIONS

pytestmark = pytest.mark.e2e
TENANT = "fuzz-subscriptions"


@pytest.fixture(scope="module")
def api_schema(local_stack: LocalStackHandle) -> Any:
    return served_schema(local_stack)


@pytest.fixture(scope="module")
def bearer(local_stack: LocalStackHandle) -> str:
    return local_stack.jwt("fuzzer", "subscriptions:manage", tenant=TENANT)


@pytest.fixture(scope="module")
def real_subscription(local_stack: LocalStackHandle, bearer: str) -> str:
    body = {"url": "https://receiver.example/hooks", "events": ["interrupt.resolved"]}
    made = local_stack.http.post("/subscriptions", body, token=bearer)
    assert made.status == 201, made.body
    return str(made.json()["id"])


@EACH_MODE
@each_operation(SUBSCRIPTION_OPERATIONS)
def test_no_server_error_and_every_answer_as_documented(
    method: str,
    path: str,
    mode: GenerationMode,
    api_schema: Any,
    local_stack: LocalStackHandle,
    bearer: str,
    real_subscription: str,
) -> None:
    # Given generated requests, every other one aimed at the real subscription (never a DELETE of it)
    # Then no 5xx, and every answer as the document says
    def aimed(parameters: dict[str, Any]) -> dict[str, Any]:
        return parameters if method == "DELETE" else {**parameters, "subscriptionId": real_subscription}

    fuzz(api_schema[path][method], mode, local_stack, bearer, aimed)
