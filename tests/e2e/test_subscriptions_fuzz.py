"""Hostile input over real HTTP on the subscription routes (docs/webhooks-out.md): schemathesis drives
each of them against the local stack with a bearer that holds subscriptions:manage, and checks every
answer against the served document, as tests/e2e/test_api_fuzz.py does for the others (whose bearer
lacks this scope, so it sees only their 403s).

The bearer is of a tenant of its own, which no run belongs to: the subscriptions the fuzzer makes (to
https URLs it invents) never receive an event, so nothing is ever sent to them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.test_api_fuzz import CHECKS
from waitgate.http.openapi.subscription_routes import SUBSCRIPTION_OPERATIONS

pytestmark = pytest.mark.e2e
MAX_EXAMPLES = 25
TENANT = "fuzz-subscriptions"
_alternate = itertools.count()


@pytest.fixture(scope="module")
def api_schema(local_stack: LocalStackHandle) -> Any:
    return schemathesis.openapi.from_url(local_stack.api_url + "/openapi.json")


@pytest.fixture(scope="module")
def bearer(local_stack: LocalStackHandle) -> str:
    return local_stack.jwt("fuzzer", "subscriptions:manage", tenant=TENANT)


@pytest.fixture(scope="module")
def real_subscription(local_stack: LocalStackHandle, bearer: str) -> str:
    body = {"url": "https://receiver.example/hooks", "events": ["interrupt.resolved"]}
    made = local_stack.http.post("/subscriptions", body, token=bearer)
    assert made.status == 201, made.body
    return str(made.json()["id"])


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
@pytest.mark.parametrize(
    ("method", "path"),
    [(o.method.upper(), o.path) for o in SUBSCRIPTION_OPERATIONS],
    ids=[o.operation_id for o in SUBSCRIPTION_OPERATIONS],
)
def test_no_server_error_and_every_answer_as_documented(
    method: str,
    path: str,
    mode: GenerationMode,
    api_schema: Any,
    local_stack: LocalStackHandle,
    bearer: str,
    real_subscription: str,
) -> None:
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def each(case: Any) -> None:
        # Given a generated request (every other one aimed at the real subscription; never a DELETE of it)
        if case.path_parameters and method != "DELETE" and next(_alternate) % 2 == 0:
            case.path_parameters = {**case.path_parameters, "subscriptionId": real_subscription}
        case.call_and_validate(
            base_url=local_stack.api_url,
            headers={"Authorization": f"Bearer {bearer}"},
            checks=CHECKS,
            timeout=30,
        )

    try:
        each()
    except Unsatisfiable:
        assert mode is GenerationMode.NEGATIVE
        pytest.skip("nothing in this operation's request can be made invalid")
