"""Hostile input over real HTTP: schemathesis drives every operation of the served OpenAPI document
against the local stack and checks every answer against the document.

Bounded to fit in `make test`: at most MAX_EXAMPLES per operation, derandomized (the same cases every
run), no hypothesis deadline. Half of the cases address a real suspended run (and a real signed link),
so the checks also see 200/201/202 answers, not only 404s.
"""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.test_local_stack import APPROVAL, run_snapshot, wait_for
from waitgate.http.openapi import OPERATIONS

MAX_EXAMPLES = 25
ALL_SCOPES = "approvals:respond interrupts:mint runs:read"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
_alternate = itertools.count()


@pytest.fixture(scope="module")
def api_schema(local_stack: LocalStackHandle) -> Any:
    return schemathesis.openapi.from_url(local_stack.api_url + "/openapi.json")


@pytest.fixture(scope="module")
def bearer(local_stack: LocalStackHandle) -> str:
    return local_stack.jwt("fuzzer", ALL_SCOPES)


@pytest.fixture(scope="module")
def real_targets(local_stack: LocalStackHandle, bearer: str) -> Iterator[dict[str, str]]:
    """A run of the generic workflow waiting for approval at node Interrupt, and a resolve link to it."""
    run_id = f"fuzz-{uuid.uuid4().hex}"
    local_stack.sfn.start_execution(
        stateMachineArn=local_stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"interrupt": APPROVAL}),
    )
    wait_for(lambda: run_snapshot(local_stack, run_id))
    minted = local_stack.http.post(
        f"/runs/{run_id}/interrupts/Interrupt/tokens", {"intent": "resolve"}, token=bearer
    )
    assert minted.status == 201, minted.body
    yield {"runId": run_id, "nodeId": "Interrupt", "token": minted.json()["token"]}


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
@pytest.mark.parametrize(
    ("method", "path"),
    [(o.method.upper(), o.path) for o in OPERATIONS],
    ids=[o.operation_id for o in OPERATIONS],
)
def test_no_server_error_and_every_answer_as_documented(
    method: str,
    path: str,
    mode: GenerationMode,
    api_schema: Any,
    local_stack: LocalStackHandle,
    bearer: str,
    real_targets: dict[str, str],
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
        # Given a generated request (every other one aimed at a real run or link)
        if case.path_parameters and next(_alternate) % 2 == 0:
            case.path_parameters = {
                name: real_targets.get(name, value) for name, value in case.path_parameters.items()
            }
        # When it is sent over HTTP with a bearer JWT holding every scope
        # Then no 5xx, and status, content type, headers and body are what the document says
        case.call_and_validate(
            base_url=local_stack.api_url,
            headers={"Authorization": f"Bearer {bearer}"},
            checks=CHECKS,
            timeout=30,
        )

    try:
        each()
    except Unsatisfiable:
        # Only for NEGATIVE: an operation with no parameter or body that a wrong value can be sent in
        assert mode is GenerationMode.NEGATIVE
        pytest.skip("nothing in this operation's request can be made invalid")
