"""schemathesis over real HTTP, as every fuzz of the served document runs it: bounded to fit in
`make test` (at most MAX_EXAMPLES per operation, derandomized: the same cases every run, no hypothesis
deadline), every answer checked against the document (no 5xx; status, content type, headers and body
as documented)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
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
from waitgate.http.openapi import Operation

MAX_EXAMPLES = 25
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


# Each operation in both modes: requests as the document allows them, and requests it refuses
EACH_MODE = pytest.mark.parametrize(
    "mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value
)


def each_operation(operations: Sequence[Operation]) -> pytest.MarkDecorator:
    """A test's (method, path) parameters: one case per operation, named by its operationId."""
    return pytest.mark.parametrize(
        ("method", "path"),
        [(o.method.upper(), o.path) for o in operations],
        ids=[o.operation_id for o in operations],
    )


def served_schema(local_stack: LocalStackHandle) -> Any:
    return schemathesis.openapi.from_url(local_stack.api_url + "/openapi.json")


def fuzz(
    operation: Any,
    mode: GenerationMode,
    local_stack: LocalStackHandle,
    bearer: str,
    aimed: Callable[[dict[str, Any]], dict[str, Any]],
) -> None:
    """Generated requests of `operation` sent with the bearer JWT, every other one with its path
    parameters `aimed` at something real (a run, a link, a subscription), so that the checks see its
    2xx answers too, not only 404s. A NEGATIVE mode with nothing to make invalid is skipped."""
    alternate = itertools.count()

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
        # Given a generated request (every other one aimed at something real)
        if case.path_parameters and next(alternate) % 2 == 0:
            case.path_parameters = aimed(case.path_parameters)
        # When it is sent over HTTP with the bearer JWT
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
