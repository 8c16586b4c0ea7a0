"""tests.support.coverage_boundary: while moto answers, the thread's trace function is unset; our
handlers called inside moto's answer run with it set again; every call returns to the tracer it had."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import boto3
import pytest
from moto.core.botocore_stubber import BotocoreStubber
from moto.dynamodb.models import DynamoDBBackend

from local.patches.lambda_runtime import FunctionRegistry
from tests.support import coverage_boundary
from tests.support.untraced import UNTRACED

pytestmark = UNTRACED  # these tests set a trace function of their own in place of the coverage tracer


def _tracer(frame: FrameType, event: str, arg: Any) -> Any:
    return _tracer


@contextmanager
def traced() -> Iterator[None]:
    """In the test's own call (the tracer is unset for an UNTRACED test's call, not for its setup)."""
    before = sys.gettrace()
    sys.settrace(_tracer)
    try:
        yield
    finally:
        sys.settrace(before)


def test_install_wraps_moto_s_dispatch_and_the_local_runtime_s_invoke_once() -> None:
    coverage_boundary.install()
    dispatch, invoke = BotocoreStubber.__dict__["__call__"], FunctionRegistry.__dict__["invoke"]
    coverage_boundary.install()
    assert BotocoreStubber.__dict__["__call__"] is dispatch and hasattr(dispatch, "__wrapped__")
    assert FunctionRegistry.__dict__["invoke"] is invoke and hasattr(invoke, "__wrapped__")
    assert not hasattr(dispatch.__wrapped__, "__wrapped__")


def test_moto_answers_untraced_and_a_handler_inside_it_traced(
    aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    @coverage_boundary._traced_again
    def handler() -> None:  # as FunctionRegistry.invoke, when moto runs one of our functions
        seen["handler"] = sys.gettrace()

    answer = DynamoDBBackend.list_tables

    def list_tables(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen["moto before"] = sys.gettrace()
        handler()
        seen["moto after"] = sys.gettrace()
        return answer(self, *args, **kwargs)

    monkeypatch.setattr(DynamoDBBackend, "list_tables", list_tables)
    client = boto3.client("dynamodb", region_name="us-east-1")
    with traced():
        client.list_tables()
        after = sys.gettrace()
    assert seen == {"moto before": None, "handler": _tracer, "moto after": None}
    assert after is _tracer


def test_without_a_tracer_both_only_call_through(aws: None) -> None:
    assert sys.gettrace() is None
    seen = []
    coverage_boundary._traced_again(lambda: seen.append(sys.gettrace()))()
    coverage_boundary._untraced(lambda: seen.append(sys.gettrace()))()
    assert seen == [None, None]
    assert boto3.client("dynamodb", region_name="us-east-1").list_tables()["TableNames"] == []


def test_a_failing_answer_leaves_the_tracer_as_it_was() -> None:
    inside = []

    def refuses() -> None:
        inside.append(sys.gettrace())
        raise RuntimeError("moto failed")

    with traced():
        with pytest.raises(RuntimeError, match="moto failed"):
            coverage_boundary._untraced(refuses)()
        after = sys.gettrace()
    assert inside == [None] and after is _tracer
