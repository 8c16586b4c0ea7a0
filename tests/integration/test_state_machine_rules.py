"""Rules every state machine of the template keeps, so a new Task state cannot forget them:

- every Lambda Task retries Lambda's own transient failures and waitgate's TemporarilyUnavailableError,
  with exponential backoff and full jitter (without it one throttled call fails the run);
- every waitForTaskToken Task has a TimeoutSeconds backstop past the longest deadline (plus a margin)
  and within the execution's one-year limit, and catches States.Timeout and States.HeartbeatTimeout into
  a Fail state with a named error (without it an answer that never arrives holds the run for a year).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from local.template.sam_template import REPO_ROOT, load_state_machine_definition
from tests.integration.sample_machines import SampleOnMoto
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.wait_limits import (
    DEADLINE_MARGIN_SECONDS,
    EXECUTION_LIMIT_SECONDS,
    MAX_TIMEOUT_MS,
    TASK_BACKSTOP_SECONDS,
    WAIT_EXCEEDED_ERROR,
)

ASL_FILES = sorted(p.name for p in (REPO_ROOT / "statemachines").glob("*.asl.json"))
LAMBDA_INVOKE = "arn:aws:states:::lambda:invoke"
RETRIED = {
    "Lambda.TooManyRequestsException",
    "Lambda.ServiceException",
    "Lambda.AWSLambdaException",
    "Lambda.SdkClientException",
    "Lambda.ClientExecutionTimeoutException",
    TemporarilyUnavailableError.__name__,  # a Python Lambda's errorType is the exception's class name
}
BACKSTOP_ERRORS = {"States.Timeout", "States.HeartbeatTimeout"}


def all_states(definition: dict[str, Any]) -> dict[str, Any]:
    """Every state, including those inside Parallel branches and Map processors."""
    found = dict(definition["States"])
    for state in definition["States"].values():
        for inner in [
            *state.get("Branches", []),
            *[state[k] for k in ("Iterator", "ItemProcessor") if k in state],
        ]:
            found.update(all_states(inner))
    return found


def lambda_tasks(path: str) -> dict[str, dict[str, Any]]:
    states = all_states(load_state_machine_definition(f"statemachines/{path}"))
    return {
        name: state
        for name, state in states.items()
        if state.get("Type") == "Task" and str(state.get("Resource", "")).startswith(LAMBDA_INVOKE)
    }


def test_the_state_machines_have_lambda_tasks_to_check() -> None:
    assert sum(len(lambda_tasks(path)) for path in ASL_FILES) >= 12


@pytest.mark.parametrize("path", ASL_FILES)
def test_every_lambda_task_retries_transient_failures_with_backoff_and_jitter(path: str) -> None:
    for name, state in lambda_tasks(path).items():
        retriers = state.get("Retry", [])
        # Then one retrier covers every transient failure, before any catch-all could take them
        covering = [r for r in retriers if set(r["ErrorEquals"]) >= RETRIED]
        assert covering, f"{path} {name}: no Retry of {sorted(RETRIED - _retried(retriers))}"
        (retrier, *_) = covering
        # With exponential backoff and full jitter, a few attempts
        assert retrier.get("BackoffRate", 2.0) > 1, f"{path} {name}: no backoff"
        assert retrier.get("JitterStrategy") == "FULL", f"{path} {name}: no jitter"
        assert 2 <= retrier.get("MaxAttempts", 3) <= 10, f"{path} {name}"
        # And never a retry of the wait itself (the backstop) or of everything
        for other in retriers:
            assert not set(other["ErrorEquals"]) & (BACKSTOP_ERRORS | {"States.ALL"}), f"{path} {name}"


def _retried(retriers: list[dict[str, Any]]) -> set[str]:
    return {error for retrier in retriers for error in retrier["ErrorEquals"]}


@pytest.mark.parametrize("path", ASL_FILES)
def test_every_wait_for_task_token_task_has_a_backstop_that_fails_the_run_by_name(path: str) -> None:
    definition = load_state_machine_definition(f"statemachines/{path}")
    states = all_states(definition)
    waits = {n: s for n, s in lambda_tasks(path).items() if s["Resource"].endswith(".waitForTaskToken")}
    for name, state in waits.items():
        # Then its TimeoutSeconds comes after the longest deadline plus the margin, before the year is out
        timeout = state.get("TimeoutSeconds")
        assert isinstance(timeout, int), f"{path} {name}: no TimeoutSeconds backstop"
        assert MAX_TIMEOUT_MS // 1000 + DEADLINE_MARGIN_SECONDS <= timeout < EXECUTION_LIMIT_SECONDS, name
        # And States.Timeout and States.HeartbeatTimeout are caught together, into a named failure
        (catcher,) = [c for c in state.get("Catch", []) if BACKSTOP_ERRORS & set(c["ErrorEquals"])]
        assert set(catcher["ErrorEquals"]) >= BACKSTOP_ERRORS, f"{path} {name}"
        target = states[catcher["Next"]]
        if target["Type"] == "Fail":
            assert not target["Error"].startswith("States."), f"{path} {name}: the failure needs a name"


def test_the_samples_backstop_is_the_one_the_sdk_builds() -> None:
    timeouts = {
        s["TimeoutSeconds"] for p in ASL_FILES for s in lambda_tasks(p).values() if "TimeoutSeconds" in s
    }
    assert timeouts == {TASK_BACKSTOP_SECONDS}


def test_a_task_past_its_backstop_fails_the_run_with_interrupt_wait_exceeded(aws: None) -> None:
    # Given the generic workflow with its backstop shortened to a second (moto fires TimeoutSeconds)
    def one_second(definition: dict[str, Any]) -> None:
        definition["States"]["Interrupt"]["TimeoutSeconds"] = 1

    sample = SampleOnMoto.create("interrupt.asl.json", one_second)
    interrupt = {"kind": "custom", "key": "label", "data": {"customKind": "acme.label", "payload": {}}}
    # When nothing answers its task
    execution_arn = sample.start({"interrupt": interrupt})
    for _ in range(600):
        described = sample.sfn.describe_execution(executionArn=execution_arn)
        if described["status"] != "RUNNING":
            break
        time.sleep(0.05)
    # Then the run fails with the named error, not a bare States.Timeout, and says why
    assert (described["status"], described.get("error")) == ("FAILED", WAIT_EXCEEDED_ERROR)
    assert "backstop" in described.get("cause", "")
    history = sample.sfn.get_execution_history(executionArn=execution_arn)["events"]
    assert "TaskTimedOut" in {event["type"] for event in history}
