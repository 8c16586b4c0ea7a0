"""Creators for IAM, Lambda (functions, layers, event source mappings) and Step Functions."""

from __future__ import annotations

import io
import json
import logging
import re
import zipfile
from pathlib import Path
from typing import Any

from botocore.exceptions import ClientError

from local.patches.lambda_runtime import LocalFunction
from local.template.event_patterns import check_pattern
from local.template.resources import Created, Creator, StackContext
from local.template.sam_template import LOCAL_CODE_BUCKET, local_code_path

logger = logging.getLogger(__name__)
_SUBSTITUTION = re.compile(r"\$\{([^}]+)\}")


def placeholder_zip() -> bytes:
    """moto wants a code zip; the real code runs in-process from the repository folder."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.txt", "waitgate local stack: code runs from the repository\n")
    return buffer.getvalue()


def code_folder(code: dict[str, Any]) -> str:
    return str(local_code_path(f"s3://{LOCAL_CODE_BUCKET}/{code['S3Key']}"))


def policy_json(document: dict[str, Any]) -> str:
    """IAM takes a policy without Version (as SAM writes some); moto insists on 2012-10-17."""
    return json.dumps({"Version": "2012-10-17", **document})


def create_managed_policy(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("ManagedPolicyName") or context.physical_name(logical_id, 128)
    policy = context.clients("iam").create_policy(
        PolicyName=name, PolicyDocument=policy_json(properties["PolicyDocument"])
    )["Policy"]
    return Created(ref=policy["Arn"], attributes={"PolicyArn": policy["Arn"]})


def create_role(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    iam = context.clients("iam")
    name = properties.get("RoleName") or context.physical_name(logical_id, 64)
    role = iam.create_role(
        RoleName=name,
        AssumeRolePolicyDocument=json.dumps(properties["AssumeRolePolicyDocument"]),
    )["Role"]
    for policy_arn in properties.get("ManagedPolicyArns", []):
        try:
            iam.attach_role_policy(RoleName=name, PolicyArn=policy_arn)
        except ClientError:
            logger.debug("%s: managed policy %s unknown to moto, not attached", name, policy_arn)
    for inline in properties.get("Policies", []):
        iam.put_role_policy(
            RoleName=name,
            PolicyName=inline["PolicyName"],
            PolicyDocument=policy_json(inline["PolicyDocument"]),
        )
    return Created(ref=name, attributes={"Arn": role["Arn"], "RoleId": role["RoleId"]})


def create_layer_version(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("LayerName") or context.physical_name(logical_id, 64)
    layer = context.clients("lambda").publish_layer_version(
        LayerName=name,
        Content={"ZipFile": placeholder_zip()},
        CompatibleRuntimes=properties.get("CompatibleRuntimes", []),
    )
    context.functions.add_layer_path(code_folder(properties["Content"]))
    return Created(ref=layer["LayerVersionArn"])


def create_function(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("FunctionName") or context.physical_name(logical_id, 64)
    function = context.clients("lambda").create_function(
        FunctionName=name,
        Runtime=properties.get("Runtime", "python3.11"),
        Role=properties["Role"],
        Handler=properties["Handler"],
        Code={"ZipFile": placeholder_zip()},
        MemorySize=int(properties.get("MemorySize", 128)),
        Timeout=int(properties.get("Timeout", 3)),
        Layers=properties.get("Layers", []),
        Environment=properties.get("Environment", {"Variables": {}}),
    )
    context.functions.register(
        LocalFunction(
            function_name=name,
            function_arn=function["FunctionArn"],
            code_path=Path(code_folder(properties["Code"])),
            handler=properties["Handler"],
            memory_mb=int(properties.get("MemorySize", 128)),
            timeout_seconds=int(properties.get("Timeout", 3)),
            environment=properties.get("Environment", {}).get("Variables", {}),
        )
    )
    if "DurableConfig" in properties:  # moto knows no durable functions: the local runner runs them
        context.durable_configs[name] = properties["DurableConfig"]
    return Created(ref=name, attributes={"Arn": function["FunctionArn"]})


def create_event_invoke_config(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    """How Lambda handles the function's asynchronous invocations: retries, then the OnFailure
    destination (local.patches.async_invocations applies them)."""
    arguments = {
        key: properties[key]
        for key in ("MaximumRetryAttempts", "MaximumEventAgeInSeconds", "DestinationConfig")
        if key in properties
    }
    for number in ("MaximumRetryAttempts", "MaximumEventAgeInSeconds"):
        if number in arguments:
            arguments[number] = int(arguments[number])
    function_name = str(properties["FunctionName"]).split(":function:")[-1]
    context.clients("lambda").put_function_event_invoke_config(FunctionName=function_name, **arguments)
    return Created(ref=f"{function_name}:{properties.get('Qualifier', '$LATEST')}")


def create_event_source_mapping(
    context: StackContext, logical_id: str, properties: dict[str, Any]
) -> Created:
    """moto ignores FilterCriteria: the patterns are kept for the stream dispatch to apply (as it
    applies MaximumBatchingWindowInSeconds, which moto keeps)."""
    allowed = {
        "EventSourceArn",
        "FunctionName",
        "StartingPosition",
        "BatchSize",
        "Enabled",
        "MaximumBatchingWindowInSeconds",  # the stream dispatch waits that long before a delivery
    }
    arguments = {key: value for key, value in properties.items() if key in allowed}
    if str(properties["EventSourceArn"]).startswith("arn:aws:sqs:"):
        _poll_queue_locally(context, properties)
        arguments["Enabled"] = False  # moto would invoke inside SendMessage; the poller does it instead
    mapping = context.clients("lambda").create_event_source_mapping(**arguments)
    patterns = [json.loads(f["Pattern"]) for f in properties.get("FilterCriteria", {}).get("Filters", [])]
    for pattern in patterns:
        check_pattern(pattern)
    if patterns:
        function_name = str(properties["FunctionName"]).split(":function:")[-1]
        context.stream_filters[(function_name, str(properties["EventSourceArn"]))] = patterns
    return Created(ref=mapping["UUID"])


def _poll_queue_locally(context: StackContext, properties: dict[str, Any]) -> None:
    from local.standins.queue_poller import QueueMapping

    mapping = QueueMapping(
        function_name=str(properties["FunctionName"]).split(":function:")[-1],
        queue_arn=str(properties["EventSourceArn"]),
        batch_size=int(properties.get("BatchSize", 10)),
        report_item_failures="ReportBatchItemFailures" in properties.get("FunctionResponseTypes", []),
    )
    context.queue_mappings.append(mapping)


def create_state_machine(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    """Through the Step Functions API: moto's CloudFormation ignores DefinitionSubstitutions."""
    name = properties.get("StateMachineName") or context.physical_name(logical_id, 80)
    definition = properties.get("DefinitionString") or json.dumps(properties["Definition"])
    definition = substitute_definition(definition, properties.get("DefinitionSubstitutions", {}))
    machine = context.clients("stepfunctions").create_state_machine(
        name=name,
        definition=definition,
        roleArn=properties["RoleArn"],
        type=properties.get("StateMachineType", "STANDARD"),
    )
    arn = machine["stateMachineArn"]
    return Created(ref=arn, attributes={"Arn": arn, "Name": name})


def substitute_definition(definition: str, substitutions: dict[str, Any]) -> str:
    """`${Name}` replaced for each DefinitionSubstitutions key; everything else left as written."""

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        return str(substitutions[name]) if name in substitutions else match.group(0)

    return _SUBSTITUTION.sub(substitute, definition)


COMPUTE_CREATORS: dict[str, Creator] = {
    "AWS::IAM::ManagedPolicy": create_managed_policy,
    "AWS::IAM::Role": create_role,
    "AWS::Lambda::LayerVersion": create_layer_version,
    "AWS::Lambda::Function": create_function,
    "AWS::Lambda::EventSourceMapping": create_event_source_mapping,
    "AWS::Lambda::EventInvokeConfig": create_event_invoke_config,
    "AWS::StepFunctions::StateMachine": create_state_machine,
}
