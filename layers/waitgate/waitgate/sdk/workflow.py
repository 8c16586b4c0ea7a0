"""The ASL Task state that suspends a Step Functions workflow on an interrupt.

    states["ApproveRelease"] = interrupt_task_state(
        Approval("release", artifact_id="r42", artifact_type="release", title="Ship 42?"),
        function_arn=REQUEST_INTERRUPT_FUNCTION_ARN,
        result_path="$.decision", next_state="Decide", timeout_catch_next="NoDecision")

The state is the one of statemachines/interrupt.asl.json: `lambda:invoke.waitForTaskToken` of the
stack's RequestInterruptFunction with {taskToken, runId (execution name), nodeId (state name),
tenantId?, interrupt, escalation?, notify?}; its output is the resumeValue (docs/workflows.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.payloads import parse_interrupt_payload
from waitgate.run.wait_limits import TASK_BACKSTOP_SECONDS
from waitgate.run.workflow_errors import PAYLOAD_INVALID, TIMED_OUT
from waitgate.sdk.builders import InterruptBuilder, Notify, checked_notify
from waitgate.sdk.escalation import Escalation, checked_policy

WAIT_FOR_TASK_TOKEN = "arn:aws:states:::lambda:invoke.waitForTaskToken"  # noqa: S105 (an ARN)
BACKSTOP_ERRORS = ("States.Timeout", "States.HeartbeatTimeout")  # the Task's own TimeoutSeconds
TIMEOUT_ERRORS = (TIMED_OUT, *BACKSTOP_ERRORS)
INVALID_PAYLOAD_ERROR = PAYLOAD_INVALID
TRANSIENT_RETRY: dict[str, Any] = {
    "Comment": (
        "request_interrupt is safe to run again: the same key takes the waiting interrupt over "
        "(docs/durability.md)"
    ),
    "ErrorEquals": [
        "Lambda.ServiceException",
        "Lambda.AWSLambdaException",
        "Lambda.SdkClientException",
        "Lambda.TooManyRequestsException",
        "Lambda.ClientExecutionTimeoutException",
        "Lambda.Unknown",
        "ReadTimeoutError",
        "ConnectTimeoutError",
        "TemporarilyUnavailableError",
        "DeliveryFailedError",
        "ConcurrentUpdateError",
    ],
    "IntervalSeconds": 1,
    "MaxAttempts": 5,
    "BackoffRate": 2,
    "JitterStrategy": "FULL",
}


def interrupt_task_state(
    payload_or_builder: InterruptBuilder | dict[str, Any] | None,
    *,
    function_arn: str,
    tenant_id: str | None = None,
    result_path: str | None = None,
    next_state: str | None = None,
    timeout_catch_next: str | None = None,
    payload_path: str | None = None,
    invalid_payload_catch_next: str | None = None,
    backstop_catch_next: str | None = None,
    error_result_path: str = "$.interruptError",
    timeout_seconds: int | None = TASK_BACKSTOP_SECONDS,
    escalation: Escalation | dict[str, Any] | None = None,
    escalation_path: str | None = None,
    notify: Notify | dict[str, Any] | None = None,
    notify_path: str | None = None,
) -> dict[str, Any]:
    """A Task state asking for the given interrupt.

    - `payload_or_builder`: a builder or a payload dict. A dict without JSONPath members is
      validated; one with `"<member>.$"` paths is a template filled from the state's input.
    - `payload_path`: instead of a payload, a JSONPath to it in the state's input ("$.interrupt").
    - `tenant_id`: a tenant literal, or a JSONPath ("$.tenantId"); None = the tenant "default".
    - `next_state`: the next state; None ends the workflow here.
    - Transient failures of the request itself (Lambda throttling, timeouts, a busy store) are
      retried: a re-run with the same key takes the waiting interrupt over, it never asks twice.
    - `timeout_catch_next`: catch InterruptTimedOut, States.Timeout and States.HeartbeatTimeout and
      go there (the error output at `error_result_path`); `invalid_payload_catch_next` likewise
      for InterruptPayloadInvalid. `timeout_seconds` bounds the Task itself (States.Timeout): by
      default the backstop of waitgate.run.wait_limits (364 days, a day past the longest deadline); None
      leaves the Task unbounded (the execution's one-year limit ends it). `backstop_catch_next`
      catches only the backstop (States.Timeout, States.HeartbeatTimeout), leaving InterruptTimedOut
      to fail the run: the generic workflow goes to a Fail state `InterruptWaitExceeded` there.
    - `escalation`: the escalation policy beside the interrupt (an `Escalation` or its JSON; checked
      against the payload when that is not a template), or `escalation_path`, a JSONPath to it in the
      state's input ("$.escalation"). Neither: the host's default for the tenant (docs/escalation.md).
    - `notify`: who is asked, for any kind (a `Notify` or its JSON; default: the builder's own), or
      `notify_path`, a JSONPath to it in the state's input ("$.notify"; null there names nobody).
    """
    state: dict[str, Any] = {
        "Type": "Task",
        "Resource": WAIT_FOR_TASK_TOKEN,
        "Parameters": {
            "FunctionName": function_arn,
            "Payload": _task_payload(payload_or_builder, tenant_id, payload_path),
        },
    }
    _add_escalation(state["Parameters"]["Payload"], escalation, escalation_path)
    _add_notify(state["Parameters"]["Payload"], payload_or_builder, notify, notify_path)
    if timeout_seconds is not None:
        state["TimeoutSeconds"] = timeout_seconds
    if result_path is not None:
        state["ResultPath"] = result_path
    if timeout_catch_next is not None and backstop_catch_next is not None:
        raise ValueError("timeout_catch_next catches the backstop too: give one of the two")
    catches = _catches(invalid_payload_catch_next, timeout_catch_next, backstop_catch_next, error_result_path)
    if catches:
        state["Catch"] = catches
    state.update({"Next": next_state} if next_state is not None else {"End": True})
    state["Retry"] = [dict(TRANSIENT_RETRY)]  # transient failures of the ask itself, never of the wait
    return state


def _catches(
    invalid_payload_next: str | None,
    timeout_next: str | None,
    backstop_next: str | None,
    error_result_path: str,
) -> list[dict[str, Any]]:
    """The Catch of an invalid payload, then of a timeout (or the backstop alone): each only where it
    has a next state."""
    wanted: list[tuple[tuple[str, ...], str | None]] = [
        ((INVALID_PAYLOAD_ERROR,), invalid_payload_next),
        (tuple(TIMEOUT_ERRORS), timeout_next),
        (tuple(BACKSTOP_ERRORS), backstop_next),
    ]
    return [
        {"ErrorEquals": list(errors), "Next": next_state, "ResultPath": error_result_path}
        for errors, next_state in wanted
        if next_state is not None
    ]


def _task_payload(
    payload_or_builder: InterruptBuilder | dict[str, Any] | None,
    tenant_id: str | None,
    payload_path: str | None,
) -> dict[str, Any]:
    task: dict[str, Any] = {
        "taskToken.$": "$$.Task.Token",
        "runId.$": "$$.Execution.Name",
        "nodeId.$": "$$.State.Name",
    }
    if tenant_id is not None:
        task["tenantId.$" if tenant_id.startswith("$") else "tenantId"] = tenant_id
    task["executionArn.$"] = "$$.Execution.Id"  # links the run to its execution
    if (payload_or_builder is None) == (payload_path is None):
        raise ValueError("give either a payload (or builder) or payload_path, not both")
    if payload_path is not None:
        task["interrupt.$"] = payload_path
    else:
        task["interrupt"] = interrupt_member(payload_or_builder)
    return task


def _add_escalation(
    task: dict[str, Any], escalation: Escalation | dict[str, Any] | None, escalation_path: str | None
) -> None:
    if escalation is not None and escalation_path is not None:
        raise ValueError("give either an escalation policy or escalation_path, not both")
    if escalation_path is not None:
        task["escalation.$"] = escalation_path
    elif escalation is not None:
        payload = task.get("interrupt")
        known = payload if isinstance(payload, dict) and not _has_paths(payload) else None
        task["escalation"] = checked_policy(escalation, known)


def _add_notify(
    task: dict[str, Any],
    payload_or_builder: InterruptBuilder | dict[str, Any] | None,
    notify: Notify | Mapping[str, Any] | None,
    notify_path: str | None,
) -> None:
    if notify is not None and notify_path is not None:
        raise ValueError("give either notify or notify_path, not both")
    if notify_path is not None:
        task["notify.$"] = notify_path
        return
    if notify is None and isinstance(payload_or_builder, InterruptBuilder):
        notify = payload_or_builder.notify
    if notify is not None:
        task["notify"] = checked_notify(notify)


def interrupt_member(payload_or_builder: InterruptBuilder | dict[str, Any] | None) -> dict[str, Any]:
    """The payload as it goes into Parameters: validated unless it is a JSONPath template."""
    if isinstance(payload_or_builder, InterruptBuilder):
        return payload_or_builder.to_payload()
    if not isinstance(payload_or_builder, dict):
        raise TypeError("the payload must be a builder or a dict")
    if not _has_paths(payload_or_builder):
        parse_interrupt_payload(payload_or_builder)
    return payload_or_builder


def _has_paths(value: Any) -> bool:
    if isinstance(value, dict):
        return any(str(name).endswith(".$") or _has_paths(member) for name, member in value.items())
    if isinstance(value, list):
        return any(_has_paths(item) for item in value)
    return False
