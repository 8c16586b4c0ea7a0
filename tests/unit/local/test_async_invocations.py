"""The local stack's asynchronous invocations (local.patches.async_invocations): a small pool of workers,
a failed run queued again for its retry with its due time (never slept through in a worker), Lambda's
rules kept (the first run and two retries, or EventInvokeConfig's count, then OnFailure or discarded).

The functions are stand-ins for moto's LambdaFunction (what the invoker calls of it: `_invoke_lambda`,
its names and its EventInvokeConfig), so each test sees every run; the integration test
tests/integration/test_async_failure_paths.py runs a real handler to its OnFailure queue."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from local.patches.async_invocations import AsyncInvoker

BOUND = 30.0  # seconds a test gives up after: it waits for what it needs, never for a time


@dataclass
class Config:
    config: dict[str, Any]


@dataclass
class Function:
    """What moto's LambdaFunction offers the invoker; each run appends its event, and fails while
    `failures` remain (or blocks on `gate` first, when set)."""

    function_name: str
    failures: int = 0
    gate: threading.Barrier | None = None
    event_invoke_config: list[Config] = field(default_factory=list)
    runs: list[Any] = field(default_factory=list)
    ran: threading.Condition = field(default_factory=threading.Condition)

    @property
    def function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:123456789012:function:{self.function_name}"

    def _invoke_lambda(self, event: Any) -> tuple[str, bool, str]:
        if self.gate is not None:
            self.gate.wait(BOUND)
        with self.ran:
            self.runs.append(event)
            failing = len(self.runs) <= self.failures
            self.ran.notify_all()
        if failing:
            return json.dumps({"errorType": "KeyError", "errorMessage": "'interruptId'"}), True, ""
        return "null", False, ""

    def wait_for_runs(self, count: int) -> bool:
        with self.ran:
            return self.ran.wait_for(lambda: len(self.runs) >= count, BOUND)


class Clock:
    """A clock the test moves: a retry is due only once it says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def invokers() -> Iterator[list[AsyncInvoker]]:
    made: list[AsyncInvoker] = []
    yield made
    for invoker in made:
        invoker.stop()


def test_a_failing_invocation_runs_three_times_then_is_discarded_without_a_destination(
    invokers: list[AsyncInvoker], caplog: pytest.LogCaptureFixture
) -> None:
    # Given a function that always fails, no EventInvokeConfig (Lambda's default: 2 retries)
    invokers.append(invoker := AsyncInvoker(pauses=(0.0, 0.0)))
    expire = Function("expire", failures=99)
    # When it is invoked asynchronously once
    with caplog.at_level(logging.ERROR):
        invoker.submit(expire, {"interruptId": "i-1"})
        assert invoker.idle(BOUND)
    # Then it ran three times with the same event, and was discarded, as Lambda does without OnFailure
    assert expire.runs == [{"interruptId": "i-1"}] * 3
    assert any("failed 3 times (KeyError): discarded" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(("retries", "runs"), [(0, 1), (1, 2)])
def test_the_retries_follow_the_functions_event_invoke_config(
    invokers: list[AsyncInvoker], retries: int, runs: int
) -> None:
    # Given a function that always fails, with MaximumRetryAttempts set
    invokers.append(invoker := AsyncInvoker(pauses=(0.0, 0.0)))
    expire = Function("expire", failures=99, event_invoke_config=[Config({"MaximumRetryAttempts": retries})])
    # When it is invoked once / Then it runs once plus that many retries
    invoker.submit(expire, {})
    assert invoker.idle(BOUND)
    assert len(expire.runs) == runs


def test_a_function_that_fails_once_succeeds_on_its_first_retry_and_runs_no_more(
    invokers: list[AsyncInvoker],
) -> None:
    invokers.append(invoker := AsyncInvoker(pauses=(0.0, 0.0)))
    lifecycle = Function("lifecycle", failures=1)
    invoker.submit(lifecycle, {"status": "SUCCEEDED"})
    assert invoker.idle(BOUND)
    assert len(lifecycle.runs) == 2


def test_a_retry_waits_in_the_queue_for_its_due_time_not_in_a_worker(invokers: list[AsyncInvoker]) -> None:
    # Given ONE worker, a clock that stands still, and a function whose first run fails
    clock = Clock()
    invokers.append(invoker := AsyncInvoker(workers=1, pauses=(60.0, 120.0), clock=clock))
    failing, other = Function("expire", failures=1), Function("lifecycle")
    invoker.submit(failing, {"n": 1})
    assert failing.wait_for_runs(1)
    # When another function is invoked while the retry's pause runs
    invoker.submit(other, {"n": 2})
    # Then the one worker runs it at once (it does not sleep through the pause), and the retry waits
    assert other.wait_for_runs(1)
    assert len(failing.runs) == 1
    # And once its due time comes, the retry runs (a new submission wakes the worker to look)
    clock.now += 60.0
    invoker.submit(other, {"n": 3})
    assert failing.wait_for_runs(2)
    assert invoker.idle(BOUND)
    assert (len(failing.runs), len(other.runs)) == (2, 2)


def test_four_invocations_run_at_once(invokers: list[AsyncInvoker]) -> None:
    # Given the default pool, and four functions that each go on only when all four are running
    invokers.append(invoker := AsyncInvoker())
    gate = threading.Barrier(4)
    functions = [Function(f"f{n}", gate=gate) for n in range(4)]
    # When each is invoked / Then all four run (the barrier breaks, and raises, unless they do)
    for function in functions:
        invoker.submit(function, {})
    assert invoker.idle(BOUND)
    assert not gate.broken
    assert all(len(function.runs) == 1 for function in functions)


def test_the_soonest_due_runs_first(invokers: list[AsyncInvoker]) -> None:
    # Given one worker held by a first run, and a retry due later than a fresh invocation
    clock = Clock()
    invokers.append(invoker := AsyncInvoker(workers=1, pauses=(5.0,), clock=clock))
    order: list[str] = []

    @dataclass
    class Recording(Function):
        def _invoke_lambda(self, event: Any) -> tuple[str, bool, str]:
            order.append(self.function_name)
            return super()._invoke_lambda(event)

    failing = Recording("retried", failures=1)
    invoker.submit(failing, {})
    assert failing.wait_for_runs(1)
    assert invoker.queued(1, BOUND)  # its retry, due at +5
    clock.now += 10.0  # the retry is due now (at +5)
    late = Recording("fresh")
    invoker.submit(late, {})  # due at +10: after the retry
    assert invoker.idle(BOUND)
    assert order == ["retried", "retried", "fresh"]
