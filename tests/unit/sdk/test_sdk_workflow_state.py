"""The Task state helper: the generic workflow's own Interrupt state, Step Functions' schema, catches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.run.wait_limits import TASK_BACKSTOP_SECONDS
from waitgate.sdk import Approval, interrupt_task_state

REPO_ROOT = Path(__file__).resolve().parents[3]
ASL_SCHEMA = json.loads(
    (
        Path(jsonschema.__file__).parents[1] / "cfnlint/data/schemas/other/step_functions/statemachine.json"
    ).read_text(encoding="utf-8")
)
FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:waitgate-RequestInterrupt"
RELEASE = Approval("release", artifact_id="r42", artifact_type="release", title="Ship 42?")


def machine(state: dict[str, Any], *others: str) -> dict[str, Any]:
    """A definition with the state at its start and a Succeed state per other name."""
    return {"StartAt": "Ask", "States": {"Ask": state, **{name: {"Type": "Succeed"} for name in others}}}


def test_it_is_the_generic_workflows_interrupt_state() -> None:
    # Given the Interrupt state of statemachines/interrupt.asl.json
    generic = json.loads((REPO_ROOT / "statemachines/interrupt.asl.json").read_text(encoding="utf-8"))
    expected = generic["States"]["Interrupt"]
    # When the helper builds one with the same payload path and tenant path
    state = interrupt_task_state(
        None,
        function_arn="${RequestInterruptFunctionArn}",
        tenant_id="$.tenantId",
        payload_path="$.interrupt",
        escalation_path="$.escalation",
        notify_path="$.notify",
        backstop_catch_next="InterruptWaitExceeded",
    )
    # Then it is the same state (its backstop, its Retry, its Catch of the backstop alone)
    assert state == expected


def test_a_builder_payload_with_every_option() -> None:
    # Given a builder and every option
    state = interrupt_task_state(
        RELEASE,
        function_arn=FUNCTION,
        tenant_id="acme",
        result_path="$.decision",
        next_state="Decide",
        timeout_catch_next="NoDecision",
        invalid_payload_catch_next="PayloadBug",
        timeout_seconds=3600,
    )
    # Then the payload is the builder's, the tenant a literal, and both catches are there
    payload = state["Parameters"]["Payload"]
    assert payload["interrupt"] == RELEASE.to_payload()
    assert payload["tenantId"] == "acme"
    assert (payload["taskToken.$"], payload["runId.$"], payload["nodeId.$"]) == (
        "$$.Task.Token",
        "$$.Execution.Name",
        "$$.State.Name",
    )
    assert state["Catch"] == [
        {"ErrorEquals": ["InterruptPayloadInvalid"], "Next": "PayloadBug", "ResultPath": "$.interruptError"},
        {
            "ErrorEquals": ["InterruptTimedOut", "States.Timeout", "States.HeartbeatTimeout"],
            "Next": "NoDecision",
            "ResultPath": "$.interruptError",
        },
    ]
    assert (state["ResultPath"], state["Next"], state["TimeoutSeconds"]) == ("$.decision", "Decide", 3600)
    assert "End" not in state
    # And the whole machine passes Step Functions' schema
    jsonschema.Draft7Validator(ASL_SCHEMA).validate(machine(state, "Decide", "NoDecision", "PayloadBug"))


def test_without_next_it_ends_and_catches_nothing() -> None:
    state = interrupt_task_state(RELEASE.to_payload(), function_arn=FUNCTION)
    assert state["End"] is True and "Catch" not in state and "ResultPath" not in state
    assert "tenantId" not in state["Parameters"]["Payload"]
    jsonschema.Draft7Validator(ASL_SCHEMA).validate(machine(state))


def test_a_jsonpath_template_payload_is_kept_as_is() -> None:
    # Given a payload dict with JSONPath members (filled from the state's input)
    template = {
        "kind": "approval",
        "key": "release",
        "data": {
            "artifactId.$": "$.release.id",
            "artifactType": "release",
            "title": "Ship?",
            "actions": ["accept"],
        },
    }
    # Then it is not validated (it cannot be before Step Functions fills it) and goes in unchanged
    assert (
        interrupt_task_state(template, function_arn=FUNCTION)["Parameters"]["Payload"]["interrupt"]
        == template
    )


def test_an_invalid_static_payload_is_refused_at_build_time() -> None:
    with pytest.raises(InterruptPayloadInvalidError):
        interrupt_task_state({"kind": "approval", "key": "k", "data": {}}, function_arn=FUNCTION)


def test_payload_and_payload_path_are_exclusive() -> None:
    with pytest.raises(ValueError, match="either"):
        interrupt_task_state(RELEASE, function_arn=FUNCTION, payload_path="$.interrupt")
    with pytest.raises(ValueError, match="either"):
        interrupt_task_state(None, function_arn=FUNCTION)


def test_the_backstop_is_on_by_default_and_may_be_caught_alone() -> None:
    # Given a state built with no timeout of its own
    state = interrupt_task_state(RELEASE, function_arn=FUNCTION, backstop_catch_next="Late")
    # Then its TimeoutSeconds is the backstop past the longest deadline, and only the backstop is caught
    assert state["TimeoutSeconds"] == TASK_BACKSTOP_SECONDS
    assert state["Catch"] == [
        {
            "ErrorEquals": ["States.Timeout", "States.HeartbeatTimeout"],
            "Next": "Late",
            "ResultPath": "$.interruptError",
        }
    ]
    # And None leaves the Task unbounded; a timeout catch already covers the backstop
    assert "TimeoutSeconds" not in interrupt_task_state(RELEASE, function_arn=FUNCTION, timeout_seconds=None)
    with pytest.raises(ValueError, match="one of the two"):
        interrupt_task_state(RELEASE, function_arn=FUNCTION, timeout_catch_next="A", backstop_catch_next="B")
