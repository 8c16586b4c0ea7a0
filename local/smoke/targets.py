"""What `waitgate smoke` talks to: a deployed stack (its CloudFormation outputs and resources, the usual
credential chain) or the local stack (its local.json, the moto endpoint) — the same names either way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import boto3

from local.template.sam_template import load_template

Clients = Callable[[str], Any]  # service name → a boto3 client of the target
SMOKE_TENANT = "waitgate-smoke"  # the tenant of every run the smoke starts: apart from real tenants'
SMOKE_APPROVER = "waitgate-smoke"  # the one principal its approvals name (no contact point: no e-mail)


class TargetError(Exception):
    """The stack cannot be smoke-tested as it is (not found, an output missing): said in one line."""


@dataclass(frozen=True)
class SmokeTarget:
    """One stack, as the checks need it."""

    name: str
    region: str
    api_url: str
    interrupt_state_machine_arn: str
    interrupts_table: str
    directory_table: str
    token_secret_arn: str
    webhook_secret_prefix: str
    clients: Clients
    durable_function: str | None = None  # the sample durable function's alias; None: no samples
    durable_clients: Clients | None = None  # where its Lambda API is (locally: the durable endpoint)
    alarms: dict[str, str] = field(default_factory=dict)  # logical id → alarm name, as the stack has them

    @property
    def webhooks_url(self) -> str:
        return f"{self.api_url.rstrip('/')}/webhooks"


def template_alarms() -> dict[str, str | None]:
    """The alarms template.yaml declares: logical id → its Condition (None: always created)."""
    resources: dict[str, Any] = load_template()["Resources"]
    return {
        logical_id: resource.get("Condition")
        for logical_id, resource in resources.items()
        if resource["Type"] == "AWS::CloudWatch::Alarm"
    }


def deployed_target(stack_name: str, region: str | None) -> SmokeTarget:
    """A stack deployed with `sam deploy`: its outputs and its alarms, read through CloudFormation."""
    session = boto3.session.Session(region_name=region)
    made: dict[str, Any] = {}

    def clients(service: str) -> Any:
        if service not in made:
            made[service] = session.client(service)
        return made[service]

    cloudformation = clients("cloudformation")
    outputs = _stack_outputs(cloudformation, stack_name)
    alarms = _stack_alarms(cloudformation, stack_name)
    return SmokeTarget(
        name=stack_name,
        region=session.region_name or "",
        api_url=outputs["ApiUrl"],
        interrupt_state_machine_arn=outputs["InterruptStateMachineArn"],
        interrupts_table=outputs["InterruptsTableName"],
        directory_table=outputs["DirectoryTableName"],
        token_secret_arn=outputs["TokenSecretArn"],
        webhook_secret_prefix=f"{stack_name}/webhooks/",
        clients=clients,
        durable_function=outputs.get("ApprovalSampleFunctionAlias"),
        durable_clients=clients,
        alarms=alarms,
    )


STACK_OUTPUTS = (
    "ApiUrl",
    "InterruptStateMachineArn",
    "InterruptsTableName",
    "DirectoryTableName",
    "TokenSecretArn",
)


def _stack_outputs(cloudformation: Any, stack_name: str) -> dict[str, str]:
    """The stack's outputs; TargetError when there is no such stack or it is not a waitgate stack."""
    try:
        (stack,) = cloudformation.describe_stacks(StackName=stack_name)["Stacks"]
    except cloudformation.exceptions.ClientError as error:
        raise TargetError(f"stack {stack_name!r}: {error.response['Error'].get('Message', error)}") from error
    outputs = {entry["OutputKey"]: entry["OutputValue"] for entry in stack.get("Outputs", [])}
    missing = [key for key in STACK_OUTPUTS if key not in outputs]
    if missing:
        raise TargetError(f"stack {stack_name!r} has no output {', '.join(missing)}: is it a waitgate stack?")
    return outputs


def _stack_alarms(cloudformation: Any, stack_name: str) -> dict[str, str]:
    """The stack's alarms: logical id -> the alarm's name."""
    alarms: dict[str, str] = {}
    for page in cloudformation.get_paginator("list_stack_resources").paginate(StackName=stack_name):
        for resource in page["StackResourceSummaries"]:
            if resource["ResourceType"] == "AWS::CloudWatch::Alarm" and "PhysicalResourceId" in resource:
                alarms[resource["LogicalResourceId"]] = resource["PhysicalResourceId"]
    return alarms


def local_target(description: dict[str, Any]) -> SmokeTarget:
    """The local stack, from its local.json."""
    region = str(description["region"])

    def client_at(endpoint_url: str) -> Clients:
        made: dict[str, Any] = {}

        def clients(service: str) -> Any:
            if service not in made:
                made[service] = boto3.client(
                    service,
                    endpoint_url=endpoint_url,
                    region_name=region,
                    aws_access_key_id="local",
                    aws_secret_access_key="local",  # noqa: S106 - moto takes any
                )
            return made[service]

        return clients

    durable = description.get("durable")
    return SmokeTarget(
        name="the local stack",
        region=region,
        api_url=str(description["apiUrl"]),
        interrupt_state_machine_arn=str(description["stateMachines"]["interrupt"]),
        interrupts_table=str(description["tableNames"]["InterruptsTable"]),
        directory_table=str(description["tableNames"]["DirectoryTable"]),
        token_secret_arn=str(description["secretArns"]["TokenSecret"]),
        webhook_secret_prefix=str(description["webhookSecretPrefix"]),
        clients=client_at(str(description["awsEndpointUrl"])),
        durable_function=f"{durable['functions']['approval']}:live" if durable else None,
        durable_clients=client_at(str(durable["endpointUrl"])) if durable else None,
        alarms={str(k): str(v) for k, v in description["alarmNames"].items()},
    )
