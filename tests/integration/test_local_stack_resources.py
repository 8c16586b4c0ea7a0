"""The local stack's template walk: intrinsics resolved as CloudFormation does, every resource made."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.patches.lambda_runtime import FunctionRegistry
from local.template.intrinsics import IntrinsicError, Intrinsics, parameter_values
from local.template.stack_resources import create_template_resources
from tests.support.untraced import UNTRACED

ASL_FRAGMENT = '{"taskToken.$": "$$.Task.Token", "FunctionName": "${Fn}", "literal": "${!Kept}"}'


@pytest.fixture
def intrinsics() -> Intrinsics:
    return Intrinsics(
        parameters={"Stage": "dev", "Names": ["a", "b"], "Empty": "", "AWS::Region": "us-east-1"},
        conditions={
            "IsDev": {"Fn::Equals": [{"Ref": "Stage"}, "dev"]},
            "HasEmpty": {"Fn::Not": [{"Fn::Equals": [{"Ref": "Empty"}, ""]}]},
            "Both": {"Fn::And": [{"Condition": "IsDev"}, {"Condition": "HasEmpty"}]},
            "Either": {"Fn::Or": [{"Condition": "IsDev"}, {"Condition": "HasEmpty"}]},
        },
        refs={"Table": "waitgate-local-Table"},
        attributes={("Fn", "Arn"): "arn:aws:lambda:us-east-1:123456789012:function:f"},
    )


def test_sub_substitutes_only_dollar_brace_and_leaves_asl_paths_alone(intrinsics: Intrinsics) -> None:
    # Given ASL text with $$.Task.Token and a ${!Literal} escape
    template = {"Fn::Sub": [ASL_FRAGMENT, {"Fn": {"Fn::GetAtt": ["Fn", "Arn"]}}]}
    # When it is resolved
    resolved = json.loads(intrinsics.resolve(template))
    # Then only ${Fn} changed
    assert resolved == {
        "taskToken.$": "$$.Task.Token",
        "FunctionName": "arn:aws:lambda:us-east-1:123456789012:function:f",
        "literal": "${Kept}",
    }


def test_sub_string_form_names_parameters_resources_and_attributes(intrinsics: Intrinsics) -> None:
    text = "${Table} in ${AWS::Region} runs ${Fn.Arn}"
    assert intrinsics.resolve({"Fn::Sub": text}) == (
        "waitgate-local-Table in us-east-1 runs arn:aws:lambda:us-east-1:123456789012:function:f"
    )


def test_if_follows_conditions_and_never_evaluates_the_other_branch(intrinsics: Intrinsics) -> None:
    # Given branches of which the unused one names something unknown
    unknown = {"Ref": "NoSuchThing"}
    # Then each condition picks its branch, and the other branch is not resolved
    assert intrinsics.resolve({"Fn::If": ["IsDev", "yes", unknown]}) == "yes"
    assert intrinsics.resolve({"Fn::If": ["HasEmpty", unknown, "no"]}) == "no"
    assert intrinsics.resolve({"Fn::If": ["Both", unknown, "not both"]}) == "not both"
    assert intrinsics.resolve({"Fn::If": ["Either", "either", unknown]}) == "either"
    with pytest.raises(IntrinsicError):
        intrinsics.resolve(unknown)


def test_no_value_drops_the_key(intrinsics: Intrinsics) -> None:
    value = {"Keep": 1, "Drop": {"Fn::If": ["IsDev", {"Ref": "AWS::NoValue"}, 2]}}
    assert intrinsics.resolve(value) == {"Keep": 1}


def test_join_split_and_select(intrinsics: Intrinsics) -> None:
    joined = {"Fn::Join": [",", {"Ref": "Names"}]}
    assert intrinsics.resolve(joined) == "a,b"
    assert intrinsics.resolve({"Fn::Split": [",", joined]}) == ["a", "b"]
    assert intrinsics.resolve({"Fn::Select": [1, {"Fn::Split": [",", joined]}]}) == "b"


def test_parameters_take_overrides_then_defaults_typed_like_cloudformation() -> None:
    declared = {
        "List": {"Type": "CommaDelimitedList", "Default": ""},
        "Count": {"Type": "Number", "Default": 1800},
        "Name": {"Type": "String"},
    }
    values = parameter_values(declared, {"Name": "x", "List": "p,q"})
    assert values == {"List": ["p", "q"], "Count": "1800", "Name": "x"}
    with pytest.raises(IntrinsicError):
        parameter_values(declared, {})


def _of_type(translated: dict[str, Any], resource_type: str) -> set[str]:
    return {key for key, r in translated["Resources"].items() if r["Type"] == resource_type}


@UNTRACED  # its CPU is outside the layer (tests/support/untraced.py)
def test_every_table_function_and_state_machine_of_the_template_is_created(
    aws: None, dynamodb: Any, sfn: Any
) -> None:
    # Given moto, and the translated template.yaml
    import boto3

    # When the local stack creates the template's resources
    _, translated, context = create_template_resources(
        "http://127.0.0.1:3000", "http://127.0.0.1:3000/.local-issuer", FunctionRegistry()
    )
    created = {key: c.ref for key, c in context.physical_ids.items()}
    # Then each table, function and state machine of the translated template exists, no more
    tables = {created[key] for key in _of_type(translated, "AWS::DynamoDB::Table")}
    assert set(dynamodb.list_tables()["TableNames"]) == tables
    functions = {created[key] for key in _of_type(translated, "AWS::Lambda::Function")}
    listed = boto3.client("lambda", region_name="us-east-1").list_functions()["Functions"]
    assert {f["FunctionName"] for f in listed} == functions
    assert set(context.functions.names()) == functions
    machines = {created[key] for key in _of_type(translated, "AWS::StepFunctions::StateMachine")}
    assert {m["stateMachineArn"] for m in sfn.list_state_machines()["stateMachines"]} == machines
    # And the SSM parameters exist: the escalation defaults request_interrupt reads, the API's URL
    ssm = boto3.client("ssm", region_name="us-east-1")
    parameters = {key: created[key] for key in _of_type(translated, "AWS::SSM::Parameter")}
    assert {"EscalationDefaultsParameter", "PublicBaseUrlParameter"} <= parameters.keys()
    assert ssm.get_parameter(Name=parameters["EscalationDefaultsParameter"])["Parameter"]["Value"] == "{}"
    (request,) = [f for f in listed if f["FunctionName"] == created["RequestInterruptFunction"]]
    told = request["Environment"]["Variables"]["ESCALATION_DEFAULTS_PARAMETER"]
    assert told == parameters["EscalationDefaultsParameter"]
    # And the state machines' DefinitionSubstitutions are resolved while $$ paths survive
    for arn in machines:
        definition = sfn.describe_state_machine(stateMachineArn=arn)["definition"]
        assert "${" not in definition
        assert "$$.Task.Token" in definition
    # And the types the local stack cannot create are the only ones left out (besides the resources
    # whose condition is false: the operator's durable functions' rule, without DurableFunctionArns)
    resources = translated["Resources"]
    off = {
        key
        for key, r in resources.items()
        if "Condition" in r and not context.intrinsics.condition(r["Condition"])
    }
    assert set(context.skipped) - off == resources.keys() - created.keys() - off
    # (a durable function's version and alias: the durable endpoint takes any qualifier)
    uncreated = (
        "AWS::ApiGatewayV2::",
        "AWS::Lambda::Permission",
        "AWS::Lambda::Version",
        "AWS::Lambda::Alias",
    )
    assert all(t.startswith(uncreated) for t in context.skipped.values())


@UNTRACED  # its CPU is outside the layer (tests/support/untraced.py)
def test_the_outbox_mapping_keeps_the_templates_batching_window(aws: None, dynamodb: Any, sfn: Any) -> None:
    # Given the local stack's resources on moto
    from moto.awslambda.models import lambda_backends
    from moto.core import DEFAULT_ACCOUNT_ID

    from local.patches.stream_dispatch import batching_window_seconds

    _, translated, _ = create_template_resources(
        "http://127.0.0.1:3000", "http://127.0.0.1:3000/.local-issuer", FunctionRegistry()
    )
    outbox = "StreamDispatchFunctionChanges"  # SAM names a mapping after its function and event
    assert outbox in _of_type(translated, "AWS::Lambda::EventSourceMapping")
    declared = translated["Resources"][outbox]["Properties"]["MaximumBatchingWindowInSeconds"]
    # When the stream dispatcher asks how long the outbox's mapping gathers records
    backend = lambda_backends[DEFAULT_ACCOUNT_ID]["us-east-1"]
    mappings = backend.list_event_source_mappings("", "")
    (mapping,) = [m for m in mappings if m.function_arn.endswith("StreamDispatchFunction")]
    window = batching_window_seconds(backend, mapping.function_arn, mapping.event_source_arn)
    # Then it is the template's window, long enough for a resolver's own send to be marked first
    assert window == declared >= 1
