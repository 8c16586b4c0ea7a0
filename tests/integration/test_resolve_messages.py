"""What a refused resolve says: what is wrong with this request, in the terms of this interrupt."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler, http_event, sample_event

SAMPLE = sample_event("request_interrupt")["interrupt"]
AT = "2026-11-30T10:00:00Z"


def suspended_with(actions: list[str]) -> str:
    payload = {**SAMPLE, "data": {**SAMPLE["data"], "actions": actions}}
    run = WorkflowHarness().suspend(payload)
    Handler("request_interrupt")(run.task_event)
    return run.run_id


@pytest.fixture(scope="module")
def resolve() -> Handler:
    return Handler("resolve_by_run")


def refusal(resolve: Handler, run_id: str, resume_value: Any) -> tuple[int, dict[str, Any]]:
    response = resolve(http_event(run_id, "Interrupt", {"resumeValue": resume_value}))
    return response["statusCode"], json.loads(response["body"])


@pytest.mark.parametrize(
    ("actions", "resume_value", "detail"),
    [
        (
            ["accept", "reject"],
            {"action": "refine", "decidedAt": AT},
            "resumeValue.action: 'refine' is not one of this interrupt's actions (accept, reject)",
        ),
        (
            ["accept", "reject", "ask"],
            {"action": "acept", "decidedAt": AT},
            "resumeValue.action: 'acept' is not one of this interrupt's actions (accept, reject, ask)",
        ),
        (
            ["accept", "reject", "ask"],
            {"action": "ask", "decidedAt": AT},
            "resumeValue.feedback: action 'ask' needs feedback: the question to ask",
        ),
    ],
    ids=["refine not offered", "an action typo", "an ask without its question"],
)
def test_a_wrong_decision_is_told_in_this_interrupts_terms(
    environment: None, resolve: Handler, actions: list[str], resume_value: Any, detail: str
) -> None:
    # Given an approval offering `actions`
    run_id = suspended_with(actions)
    # When a decision it cannot take arrives
    status, problem = refusal(resolve, run_id, resume_value)
    # Then 400 validation_error says what is wrong with it, in this interrupt's terms
    assert (status, problem["code"], problem["detail"]) == (400, "validation_error", detail)
    # And the interrupt still waits: a good decision wins afterwards
    assert refusal(resolve, run_id, {"action": "accept", "decidedAt": AT})[0] == 200
