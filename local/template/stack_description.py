"""local.json: what a program needs to talk to the running local stack."""

from __future__ import annotations

from typing import Any

from local.template.resources import StackContext

OUTPUTS_BY_TYPE = {
    "AWS::DynamoDB::Table": "tableNames",
    "AWS::SNS::Topic": "topicArns",
    "AWS::SQS::Queue": "queueUrls",
    "AWS::SecretsManager::Secret": "secretArns",
    "AWS::CloudWatch::Alarm": "alarmNames",
}


def state_machine_key(logical_id: str) -> str:
    """InterruptStateMachine → "interrupt"."""
    name = logical_id.removesuffix("StateMachine") or logical_id
    return name[:1].lower() + name[1:]


def describe_stack(
    context: StackContext,
    resource_types: dict[str, str],
    api_url: str,
    aws_endpoint_url: str,
    jwt_settings: dict[str, Any],
    override_principals: list[str],
) -> dict[str, Any]:
    """The content of local.json; a new key is one more entry here."""
    description: dict[str, Any] = {
        "apiUrl": api_url,
        "awsEndpointUrl": aws_endpoint_url,
        "region": context.region,
        "stateMachines": {},
        "jwt": jwt_settings,
        "overridePrincipals": override_principals,
        **{key: {} for key in OUTPUTS_BY_TYPE.values()},
    }
    for logical_id, created in context.physical_ids.items():
        resource_type = resource_types[logical_id]
        if resource_type == "AWS::StepFunctions::StateMachine":
            description["stateMachines"][state_machine_key(logical_id)] = created.ref
        elif resource_type in OUTPUTS_BY_TYPE:
            description[OUTPUTS_BY_TYPE[resource_type]][logical_id] = created.ref
    return description
