"""The template's second engine: the sample durable function, who may answer durable callbacks, and
which durable executions' ends reach the run lifecycle (checked on SAM's own translation)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.template.intrinsics import Intrinsics, parameter_values, pseudo_parameters
from local.template.sam_template import load_template, translate

BASE = {"JwtIssuer": "https://issuer.example.com", "JwtAudience": "waitgate"}
FUNCTIONS = "arn:aws:lambda:us-east-1:123456789012:function"
OPERATOR_FUNCTIONS = f"{FUNCTIONS}:orders,{FUNCTIONS}:refunds"
CALLBACK_ACTIONS = {
    "lambda:SendDurableExecutionCallbackSuccess",
    "lambda:SendDurableExecutionCallbackFailure",
}


def resolved(parameters: dict[str, str]) -> tuple[dict[str, Any], Intrinsics]:
    pseudo = pseudo_parameters("wg", "us-east-1", "123456789012")
    translated = translate(load_template(), {**BASE, **parameters, **pseudo})
    values = parameter_values(translated["Parameters"], {**BASE, **parameters})
    intrinsics = Intrinsics(parameters={**values, **pseudo}, conditions=translated.get("Conditions", {}))
    return translated, intrinsics


@pytest.fixture(scope="module")
def own() -> tuple[dict[str, Any], Intrinsics]:
    return resolved({})


@pytest.fixture(scope="module")
def named() -> tuple[dict[str, Any], Intrinsics]:
    return resolved({"DurableFunctionArns": OPERATOR_FUNCTIONS})


def callback_resources(translated: dict[str, Any], intrinsics: Intrinsics) -> list[str]:
    policy = translated["Resources"]["DurableCallbackPolicy"]["Properties"]["PolicyDocument"]
    (statement,) = policy["Statement"]
    assert set(statement["Action"]) == CALLBACK_ACTIONS
    found = intrinsics.resolve(statement["Resource"])
    return found if isinstance(found, list) else [found]


def test_callbacks_may_be_answered_only_for_this_stacks_functions(own: Any) -> None:
    # the sample by its name, any qualifier: `wg-*` would match a stack "wg-2"'s functions too
    assert callback_resources(*own) == ["arn:aws:lambda:us-east-1:123456789012:function:wg-approval-sample:*"]


def test_and_for_the_durable_functions_the_operator_names(named: Any) -> None:
    assert callback_resources(*named) == [
        "arn:aws:lambda:us-east-1:123456789012:function:wg-approval-sample:*",
        "arn:aws:lambda:us-east-1:123456789012:function:orders:*",
        "arn:aws:lambda:us-east-1:123456789012:function:refunds:*",
    ]


def test_only_the_functions_that_answer_workflows_hold_the_callback_policy(own: Any) -> None:
    translated, _ = own
    holders = {
        name.removesuffix("Role")
        for name, resource in translated["Resources"].items()
        if resource["Type"] == "AWS::IAM::Role"
        and {"Ref": "DurableCallbackPolicy"} in resource["Properties"].get("ManagedPolicyArns", [])
    }
    task_holders = {
        name.removesuffix("Role")
        for name, resource in translated["Resources"].items()
        if resource["Type"] == "AWS::IAM::Role"
        and {"Ref": "TaskResponsePolicy"} in resource["Properties"].get("ManagedPolicyArns", [])
    }
    assert holders == task_holders and "ApprovalSampleFunction" not in holders


def test_the_sample_is_a_durable_function_that_may_invoke_request_interrupt_alone(own: Any) -> None:
    translated, _ = own
    function = translated["Resources"]["ApprovalSampleFunction"]["Properties"]
    assert function["DurableConfig"]["ExecutionTimeout"] > 0
    variables = function["Environment"]["Variables"]
    assert variables["WAITGATE_REQUEST_INTERRUPT_FUNCTION"] == {"Ref": "RequestInterruptFunction"}
    role = translated["Resources"]["ApprovalSampleFunctionRole"]["Properties"]
    assert any(
        "AWSLambdaBasicDurableExecutionRolePolicy" in json.dumps(arn) for arn in role["ManagedPolicyArns"]
    )
    statements = [s for policy in role.get("Policies", []) for s in policy["PolicyDocument"]["Statement"]]
    invoked = {json.dumps(s["Resource"]) for s in statements if "lambda:InvokeFunction" in s["Action"]}
    assert invoked and all("RequestInterruptFunction" in text for text in invoked)


def test_this_stacks_durable_executions_reach_the_run_lifecycle(own: Any) -> None:
    translated, intrinsics = own
    rules = [
        r
        for r in translated["Resources"].values()
        if r["Type"] == "AWS::Events::Rule" and ("Condition" not in r or intrinsics.condition(r["Condition"]))
    ]
    # (a rule with a ScheduleExpression and no pattern, the reconciler's, matches no event)
    patterns = [
        intrinsics.resolve(r["Properties"]["EventPattern"])
        for r in rules
        if "EventPattern" in r["Properties"]
    ]
    durable = [p for p in patterns if p.get("source") == ["aws.lambda"]]
    assert durable == [
        {
            "source": ["aws.lambda"],
            "detail-type": ["Durable Execution Status Change"],
            "detail": {
                "status": ["SUCCEEDED", "FAILED", "TIMED_OUT", "STOPPED"],
                "functionArn": [
                    f"{FUNCTIONS}:wg-approval-sample",
                    {"prefix": f"{FUNCTIONS}:wg-approval-sample:"},
                ],
            },
        }
    ]
    assert not intrinsics.condition("HasDurableFunctionArns")  # no rule for the operator's functions


def test_the_operators_durable_functions_get_a_rule_with_one_wildcard_each(named: Any) -> None:
    translated, intrinsics = named
    assert intrinsics.condition("HasDurableFunctionArns")
    rule = translated["Resources"]["DurableFunctionEndsRule"]["Properties"]
    pattern = json.loads(intrinsics.resolve(rule["EventPattern"]))
    assert pattern["detail-type"] == ["Durable Execution Status Change"]
    assert pattern["detail"]["functionArn"] == [
        {"wildcard": "arn:aws:lambda:us-east-1:123456789012:function:orders:*"},
        {"wildcard": "arn:aws:lambda:us-east-1:123456789012:function:refunds:*"},
    ]
    (target,) = rule["Targets"]
    assert target["Arn"] == {"Fn::GetAtt": ["RunLifecycleFunction", "Arn"]}
