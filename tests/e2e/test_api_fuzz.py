"""Hostile input over real HTTP: schemathesis drives every operation of the served OpenAPI document
against the local stack and checks every answer against the document (tests/e2e/schema_fuzz.py: its
bounds and checks). Half of the cases address a real suspended run (and a real signed link), so the
checks also see 200/201/202 answers, not only 404s.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from schemathesis import GenerationMode

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.schema_fuzz import EACH_MODE, each_operation, fuzz, served_schema
from tests.e2e.test_local_stack import APPROVAL, run_snapshot, wait_for
from waitgate.http.openapi import OPERATIONS

ALL_SCOPES = "approvals:respond interrupts:mint runs:read"


@pytest.fixture(scope="module")
def api_schema(local_stack: LocalStackHandle) -> Any:
    return served_schema(local_stack)


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


@EACH_MODE
@each_operation(OPERATIONS)
def test_no_server_error_and_every_answer_as_documented(
    method: str,
    path: str,
    mode: GenerationMode,
    api_schema: Any,
    local_stack: LocalStackHandle,
    bearer: str,
    real_targets: dict[str, str],
) -> None:
    # Given generated requests, every other one aimed at a real run or link, with every scope's bearer
    # Then no 5xx, and every answer as the document says
    def aimed(parameters: dict[str, Any]) -> dict[str, Any]:
        return {name: real_targets.get(name, value) for name, value in parameters.items()}

    fuzz(api_schema[path][method], mode, local_stack, bearer, aimed)
