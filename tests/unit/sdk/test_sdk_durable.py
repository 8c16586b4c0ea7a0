"""`wait_for_interrupt` in a real durable function, run by the testing SDK's DurableFunctionTestRunner:
the binding its submitter sends, the typed decision it returns, the failures it raises, replays."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from aws_durable_execution_sdk_python.execution import durable_execution
from aws_durable_execution_sdk_python.lambda_service import ErrorObject
from aws_durable_execution_sdk_python_testing.runner import DurableFunctionTestRunner

from tests.unit.sdk.agentflow_doubles import QualityGateReview
from waitgate.errors import InterruptPayloadInvalidError
from waitgate.sdk import (
    Approval,
    ApprovalDecision,
    Clarification,
    Escalation,
    EscalationStep,
    ExternalEvent,
    Notify,
    Question,
    ResolveWith,
)
from waitgate.sdk.durable import InterruptFailed, InterruptTimedOut, execution_name_of, wait_for_interrupt

FUNCTION = "waitgate-local-RequestInterruptFunction"
RELEASE = Approval(
    "release-42", artifact_id="r42", artifact_type="release", title="Ship 42?", approvers_list=["alice"]
)
ACCEPTED = {"action": "accept", "decidedAt": "2026-12-01T10:00:00Z", "decidedBy": "alice"}
WAIT_SECONDS = 30


class RecordingLambda:
    """A Lambda client that records the RequestInterruptFunction invocations (what waitgate receives)."""

    def __init__(self, function_error: str | None = None) -> None:
        self.invocations: list[dict[str, Any]] = []
        self._asked = threading.Condition()
        self._function_error = function_error

    def invoke(self, **arguments: Any) -> dict[str, Any]:
        with self._asked:
            self.invocations.append(arguments | {"Payload": json.loads(arguments["Payload"])})
            self._asked.notify_all()
        if self._function_error:
            return {"FunctionError": self._function_error, "Payload": io.BytesIO(b'{"errorMessage": "no"}')}
        return {"StatusCode": 200, "Payload": io.BytesIO(b'{"status": "requested"}')}

    def binding(self, number: int = 1) -> dict[str, Any]:
        """The `number`th binding sent, once it was sent."""
        with self._asked:
            assert self._asked.wait_for(lambda: len(self.invocations) >= number, timeout=WAIT_SECONDS)
            payload: dict[str, Any] = self.invocations[number - 1]["Payload"]
            return payload


Body = Callable[[Any, Any], Any]


def durable(body: Body) -> Any:
    return durable_execution(body)


@pytest.fixture
def lambdas() -> RecordingLambda:
    return RecordingLambda()


@pytest.fixture
def run(lambdas: RecordingLambda) -> Iterator[Callable[[Body], tuple[DurableFunctionTestRunner, str]]]:
    runners: list[DurableFunctionTestRunner] = []

    def start(body: Body) -> tuple[DurableFunctionTestRunner, str]:
        runner = DurableFunctionTestRunner(handler=durable(body))
        runners.append(runner)
        return runner, runner.run_async(input="{}", execution_name="release-42")

    yield start
    for runner in runners:
        runner.close()


def asking(lambdas: RecordingLambda, payload: Any = RELEASE, **options: Any) -> Body:
    def body(event: Any, context: Any) -> Any:
        decision = wait_for_interrupt(
            context, payload, run_id="release-42", function_name=FUNCTION, lambda_client=lambdas, **options
        )
        return decision.model_dump(mode="json") if isinstance(decision, ApprovalDecision) else decision

    return body


def test_the_submitter_sends_the_callback_binding(run: Any, lambdas: RecordingLambda) -> None:
    # Given a durable function that suspends on an approval
    run(asking(lambdas, tenant_id="acme", timeout=timedelta(hours=1)))
    # When its submitter runs
    binding = lambdas.binding()
    # Then RequestInterruptFunction got the durable binding, the callback's name as nodeId
    assert lambdas.invocations[0]["FunctionName"] == FUNCTION
    assert lambdas.invocations[0]["InvocationType"] == "RequestResponse"
    assert binding["runId"] == "release-42" and binding["nodeId"] == "release-42"
    assert binding["tenantId"] == "acme" and binding["interrupt"] == RELEASE.to_payload()
    assert binding["callbackId"] and binding["executionArn"]
    assert set(binding) == {"callbackId", "runId", "nodeId", "tenantId", "interrupt", "executionArn"}


def test_an_answered_callback_returns_the_typed_decision(run: Any, lambdas: RecordingLambda) -> None:
    # Given a function waiting on an approval
    runner, arn = run(asking(lambdas))
    callback_id = lambdas.binding()["callbackId"]
    # When waitgate answers the callback with alice's decision (SendDurableExecutionCallbackSuccess)
    runner.send_callback_success(callback_id, json.dumps(ACCEPTED).encode())
    result = runner.wait_for_result(arn, timeout=WAIT_SECONDS)
    # Then the function got an ApprovalDecision, and nobody was asked twice across the replay
    assert result.status.value == "SUCCEEDED"
    decision = ApprovalDecision.model_validate(json.loads(result.result))
    assert (decision.action, decision.decided_by, decision.accepted) == ("accept", "alice", True)
    assert len(lambdas.invocations) == 1


def test_another_kind_returns_the_plain_resume_value(run: Any, lambdas: RecordingLambda) -> None:
    # Given a function waiting for a payment webhook
    event = ExternalEvent("paid-7", event_type="payment.succeeded", correlation={"orderId": "7"})
    runner, arn = run(asking(lambdas, event))
    # When waitgate answers with the event's body
    runner.send_callback_success(lambdas.binding()["callbackId"], b'{"amount": 42}')
    # Then the function returns it as it came
    assert json.loads(runner.wait_for_result(arn, timeout=WAIT_SECONDS).result) == {"amount": 42}


def test_a_deadline_raises_interrupt_timed_out(run: Any, lambdas: RecordingLambda) -> None:
    # Given a function waiting on an approval, catching waitgate's failures
    def body(event: Any, context: Any) -> Any:
        try:
            asking(lambdas)(event, context)
        except InterruptTimedOut as timed_out:
            return {"timedOut": timed_out.error, "cause": timed_out.cause}
        return {"timedOut": None}

    runner, arn = run(body)
    # When waitgate fails the callback at the deadline, as its adapter does
    failure = ErrorObject("The deadline passed.", "InterruptTimedOut", '{"error":"InterruptTimedOut"}', None)
    runner.send_callback_failure(lambdas.binding()["callbackId"], failure)
    # Then the function saw InterruptTimedOut, with waitgate's cause
    result = json.loads(runner.wait_for_result(arn, timeout=WAIT_SECONDS).result)
    assert result == {"timedOut": "InterruptTimedOut", "cause": "The deadline passed."}


def test_another_failure_raises_interrupt_failed_by_name(run: Any, lambdas: RecordingLambda) -> None:
    def body(event: Any, context: Any) -> Any:
        try:
            asking(lambdas)(event, context)
        except InterruptFailed as failed:
            return {"error": failed.error, "timedOut": isinstance(failed, InterruptTimedOut)}
        return {}

    runner, arn = run(body)
    failure = ErrorObject("bad", "InterruptPayloadInvalid", '{"error":"InterruptPayloadInvalid"}', None)
    runner.send_callback_failure(lambdas.binding()["callbackId"], failure)
    result = json.loads(runner.wait_for_result(arn, timeout=WAIT_SECONDS).result)
    assert result == {"error": "InterruptPayloadInvalid", "timedOut": False}


def test_an_agentflow_quality_gate_is_asked_as_an_approval(run: Any, lambdas: RecordingLambda) -> None:
    # Given agentflow's QualityGateReview payload, handed over as it is
    review = QualityGateReview(artifact={"draft": "v2"}, criteria=["tone"], auto_score=0.4, gate="tone")
    runner, arn = run(asking(lambdas, review.to_payload(), key="review-7"))
    # Then waitgate is asked an approval of its artifact, under the given key
    interrupt = lambdas.binding()["interrupt"]
    assert (interrupt["kind"], interrupt["key"]) == ("approval", "review-7")
    assert interrupt["data"]["artifactType"] == "quality-gate"
    # And the answer comes back as an ApprovalDecision (agentflow's resume value at hand)
    runner.send_callback_success(lambdas.binding()["callbackId"], json.dumps(ACCEPTED).encode())
    output = runner.wait_for_result(arn, timeout=WAIT_SECONDS).result
    result = ApprovalDecision.model_validate(json.loads(output))
    assert result.to_agentflow_resume() == {"decision": "accept"}


def test_a_failing_request_function_fails_the_wait(lambdas: RecordingLambda) -> None:
    # Given RequestInterruptFunction answering with a function error (a wiring bug)
    failing = RecordingLambda(function_error="Unhandled")

    def body(event: Any, context: Any) -> Any:
        try:
            asking(failing)(event, context)
        except InterruptFailed as failed:
            return {"error": failed.error}
        return {}

    with DurableFunctionTestRunner(handler=durable(body)) as runner:
        result = runner.run(input="{}", execution_name="release-42", execution_timeout=WAIT_SECONDS)
    # Then the wait fails by the submitter's name, it does not hang
    assert json.loads(result.result)["error"] == "CallbackSubmitterError"


def test_the_run_id_is_the_durable_executions_name() -> None:
    function = "arn:aws:lambda:us-east-1:123456789012:function:orders:$LATEST"
    arn = f"{function}/durable-execution/release-42/9f7d84c9"
    assert execution_name_of(arn) == "release-42"
    with pytest.raises(ValueError, match="run_id"):
        execution_name_of("0b9e/inv-1")


def test_the_escalation_policy_and_configurable_ride_beside_the_interrupt(
    run: Any, lambdas: RecordingLambda
) -> None:
    # Given a wait with a reminder after an hour and a run setting
    remind = Escalation(steps=[EscalationStep(after=timedelta(hours=1), remind=True)])
    runner, arn = run(asking(lambdas, escalation=remind, configurable={"run": {"escalationThreshold": 0.5}}))
    # Then the binding carries the checked policy and the settings, as a Task's event does
    binding = lambdas.binding()
    assert binding["escalation"] == {"steps": [{"afterMs": 3_600_000, "remind": True}]}
    assert binding["configurable"] == {"run": {"escalationThreshold": 0.5}}
    runner.send_callback_success(binding["callbackId"], json.dumps(ACCEPTED).encode())
    assert runner.wait_for_result(arn, timeout=WAIT_SECONDS).status.value == "SUCCEEDED"


def test_a_policy_that_does_not_fit_the_interrupt_is_refused_before_anything_is_asked() -> None:
    # Given a deadline decision on an approval without a deadline (nothing to decide at)
    policy = Escalation(on_deadline=ResolveWith({"action": "reject"}))
    context = SimpleNamespace(execution_context=SimpleNamespace(durable_execution_arn="x/y"))
    # Then wait_for_interrupt refuses it at once, naming the problem
    with pytest.raises(InterruptPayloadInvalidError):
        wait_for_interrupt(context, RELEASE, run_id="r", function_name=FUNCTION, escalation=policy)


def test_the_builders_notify_rides_beside_the_interrupt(run: Any, lambdas: RecordingLambda) -> None:
    # Given a durable function that asks alice a question through its builder's notify
    question = Clarification(
        "region", questions=[Question("region", "Which region?")], notify=Notify(["alice"])
    )
    runner, arn = run(asking(lambdas, question))
    # Then the binding carries it checked, beside the payload (which stays the protocol's)
    binding = lambdas.binding()
    assert binding["notify"] == {"principals": ["alice"]}
    assert "notify" not in binding["interrupt"]
    runner.send_callback_success(binding["callbackId"], json.dumps({"answers": {"region": "eu"}}).encode())
    assert runner.wait_for_result(arn, timeout=WAIT_SECONDS).status.value == "SUCCEEDED"
