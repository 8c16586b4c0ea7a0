"""Suspend an AWS Lambda durable function on a waitgate interrupt and get the decision back.

    @durable_execution
    def lambda_handler(event, context):
        decision = wait_for_interrupt(
            context, Approval("release-42", artifact_id="r42", artifact_type="release",
                              title="Ship release 42?", approvers_list=["alice"]))
        return {"shipped": decision.accepted}

`context.wait_for_callback` creates a callback; its submitter invokes waitgate's
RequestInterruptFunction (through IAM, no public endpoint) with the binding
{callbackId, runId, nodeId, tenantId?, interrupt, configurable?, escalation?, notify?, executionArn},
and the function suspends until waitgate answers the callback: SendDurableExecutionCallbackSuccess with the
resume value, or SendDurableExecutionCallbackFailure with an error by name (InterruptTimedOut at the
deadline, InterruptPayloadInvalid, ...). A replay of the function gets the callback's answer from its
checkpoints and asks nobody again; a submitter run twice asks with the same key, which waitgate
answers once (docs/durable-functions.md).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from datetime import timedelta
from functools import cache
from typing import Any

from aws_durable_execution_sdk_python.config import Duration, WaitForCallbackConfig
from aws_durable_execution_sdk_python.exceptions import CallbackError, CallbackTimeoutError

from waitgate.run.workflow_errors import TIMED_OUT
from waitgate.sdk.builders import InterruptBuilder, Notify, checked_notify
from waitgate.sdk.decisions import ApprovalDecision
from waitgate.sdk.escalation import Escalation, checked_policy
from waitgate.sdk.interop import from_agentflow
from waitgate.sdk.workflow import interrupt_member

FUNCTION_VARIABLE = "WAITGATE_REQUEST_INTERRUPT_FUNCTION"
DEFAULT_NODE_ID = "Interrupt"
NODE_ID_LIMIT = 80
_EXECUTION_NAME = re.compile(r"/durable-execution/([A-Za-z0-9_-]+)/")
Seconds = timedelta | int | float


class InterruptFailed(Exception):
    """waitgate failed the callback: `error` names why (InterruptPayloadInvalid, InterruptCancelled, ...)."""

    def __init__(self, error: str, cause: str) -> None:
        super().__init__(f"{error}: {cause}")
        self.error, self.cause = error, cause


class InterruptTimedOut(InterruptFailed):
    """Nobody resolved the interrupt before its deadline (or the callback's own timeout passed)."""


def wait_for_interrupt(
    context: Any,
    interrupt: InterruptBuilder | Mapping[str, Any] | Any,
    *,
    key: str | None = None,
    name: str | None = None,
    run_id: str | None = None,
    tenant_id: str | None = None,
    timeout: Seconds | None = None,
    heartbeat: Seconds | None = None,
    escalation: Escalation | Mapping[str, Any] | None = None,
    notify: Notify | Mapping[str, Any] | None = None,
    configurable: Mapping[str, Any] | None = None,
    function_name: str | None = None,
    lambda_client: Any = None,
    raw: bool = False,
) -> Any:
    """Suspend on the interrupt; the typed decision (`ApprovalDecision` for an approval), or the plain
    resume value for the other kinds. Raises InterruptTimedOut / InterruptFailed when waitgate fails it.

    - `interrupt`: a builder, a payload dict, or an agentflow payload (`QualityGateReview(...)` or its
      `to_payload()`; mapped as `interrupt_kind` reads it, with `key` as its key).
    - `name`: the callback's name, which is the interrupt's nodeId (default: the payload's key, when
      it fits in 80 characters, else "Interrupt"). `run_id`: default the durable execution's name.
    - `timeout`, `heartbeat`: the callback's own (seconds or timedelta); the interrupt's deadline is
      its `timeoutMs`. `escalation`: the policy beside the interrupt (docs/escalation.md).
    - `notify`: who is asked, for any kind (a `Notify` or its JSON; default: the builder's own).
    - `function_name`: waitgate's RequestInterruptFunction (default: $WAITGATE_REQUEST_INTERRUPT_FUNCTION).
    - `raw`: return the resume value itself, the very JSON a Step Functions Task's output holds for the
      same decision, instead of the typed reader (whose dump names some members differently).
    """
    payload = payload_of(interrupt, key)
    node_id = name or (payload["key"] if len(payload["key"]) <= NODE_ID_LIMIT else DEFAULT_NODE_ID)
    arn = str(context.execution_context.durable_execution_arn)
    binding = _binding(payload, node_id, arn, run_id, tenant_id, escalation, configurable)
    if notify is None and isinstance(interrupt, InterruptBuilder):
        notify = interrupt.notify
    if notify is not None:
        binding["notify"] = checked_notify(notify)
    target = function_name or os.environ.get(FUNCTION_VARIABLE, "")
    if not target:
        raise ValueError(f"name waitgate's RequestInterruptFunction: function_name= or ${FUNCTION_VARIABLE}")

    def submit(callback_id: str, _: Any) -> None:
        client = lambda_client or default_lambda_client()
        request_interrupt(client, target, {"callbackId": callback_id, **binding})

    config = WaitForCallbackConfig(timeout=_duration(timeout), heartbeat_timeout=_duration(heartbeat))
    try:
        answer = context.wait_for_callback(submit, name=node_id, config=config)
    except CallbackTimeoutError as error:
        raise InterruptTimedOut(TIMED_OUT, error.message or "The callback timed out.") from None
    except CallbackError as error:
        raise _failure(error) from None
    return resume_value_of(answer) if raw else decision_of(payload["kind"], answer)


def _binding(
    payload: dict[str, Any],
    node_id: str,
    execution_arn: str,
    run_id: str | None,
    tenant_id: str | None,
    escalation: Escalation | Mapping[str, Any] | None,
    configurable: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """What request_interrupt is given beside the callback id (docs/durable-functions.md)."""
    binding: dict[str, Any] = {"runId": run_id or execution_name_of(execution_arn), "nodeId": node_id}
    binding |= {"tenantId": tenant_id} if tenant_id is not None else {}
    binding |= {"interrupt": payload, "executionArn": execution_arn}
    if configurable is not None:
        binding["configurable"] = dict(configurable)
    if escalation is not None:
        binding["escalation"] = checked_policy(escalation, payload)
    return binding


def payload_of(interrupt: Any, key: str | None) -> dict[str, Any]:
    """A valid interrupt payload from a builder, a payload dict or an agentflow payload."""
    if isinstance(interrupt, Mapping) and isinstance(interrupt.get("kind"), str):
        return interrupt_member(dict(interrupt))
    if isinstance(interrupt, InterruptBuilder):
        return interrupt_member(interrupt)
    builder = from_agentflow(interrupt, key=key or DEFAULT_NODE_ID)
    if builder is None:
        raise TypeError("the interrupt must be a builder, a payload dict or an agentflow payload")
    return builder.to_payload()


def resume_value_of(answer: Any) -> Any:
    """The callback's result (JSON text) as the resume value it carries."""
    return json.loads(answer) if isinstance(answer, str | bytes) else answer


def decision_of(kind: str, answer: Any) -> Any:
    """The callback's result (JSON text) read as the kind's decision."""
    value = resume_value_of(answer)
    return ApprovalDecision.from_resume(value) if kind == "approval" else value


def execution_name_of(durable_execution_arn: str) -> str:
    """arn:aws:lambda:…:function:<fn>:<qualifier>/durable-execution/<name>/<id> → name."""
    match = _EXECUTION_NAME.search(durable_execution_arn)
    if match is None:
        raise ValueError("the durable execution's ARN does not name it: pass run_id=")
    return match.group(1)


def request_interrupt(client: Any, function_name: str, binding: dict[str, Any]) -> None:
    """Invoke RequestInterruptFunction and wait for its answer: the interrupt is recorded when it returns
    (an error raises, and the submitter step retries: the same key is never asked twice)."""
    answer = client.invoke(
        FunctionName=function_name,
        InvocationType="RequestResponse",
        Payload=json.dumps(binding, separators=(",", ":")).encode("utf-8"),
    )
    if answer.get("FunctionError"):
        body = json.loads(answer["Payload"].read() or b"{}")
        message = body.get("errorMessage", "") if isinstance(body, dict) else ""
        raise RuntimeError(f"RequestInterruptFunction failed: {answer['FunctionError']}: {message}")


@cache
def default_lambda_client() -> Any:
    import boto3

    return boto3.client("lambda")


def _duration(value: Seconds | None) -> Duration:
    if value is None:
        return Duration()
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    return Duration.from_seconds(seconds)


def _failure(error: CallbackError) -> InterruptFailed:
    """waitgate names its failure in ErrorData {"error": ...} (the SDK keeps the message and the data)."""
    try:
        data = json.loads(error.data or "{}")
    except ValueError:
        data = {}
    name = str(data.get("error", "")) if isinstance(data, dict) else ""
    cause = error.message or "The callback failed."
    if name == TIMED_OUT:
        return InterruptTimedOut(name, cause)
    return InterruptFailed(name or type(error).__name__, cause)
