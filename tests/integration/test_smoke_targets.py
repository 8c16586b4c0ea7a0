"""`waitgate smoke --stack-name` on a deployed stack (strict moto): what it reads of CloudFormation (the
outputs, the alarms among the stack's resources), and the alarm check refusing a stack that lacks one
the template declares or whose alarm is gone from CloudWatch."""

from __future__ import annotations

import json
from dataclasses import replace

import boto3
import pytest

from local.smoke.checks import CheckFailedError, check_alarms
from local.smoke.targets import SmokeTarget, TargetError, deployed_target, template_alarms
from tests.integration.conftest import REGION

pytestmark = pytest.mark.usefixtures("aws")

OUTPUTS = {
    "ApiUrl": "https://abc123.execute-api.us-east-1.amazonaws.com",
    "InterruptStateMachineArn": "arn:aws:states:us-east-1:123456789012:stateMachine:prod-interrupt",
    "InterruptsTableName": "prod-InterruptsTable-1",
    "DirectoryTableName": "prod-DirectoryTable-1",
    "TokenSecretArn": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod-token-AbCdEf",
}


def deploy(name: str, outputs: dict[str, str]) -> None:
    """A stack with these outputs, as CloudFormation keeps it (moto's CloudFormation creates no alarms,
    so the alarms' tests give the target its stack's alarms themselves)."""
    template = {
        "Resources": {"Topic": {"Type": "AWS::SNS::Topic"}},
        "Outputs": {key: {"Value": value} for key, value in outputs.items()},
    }
    boto3.client("cloudformation", region_name=REGION).create_stack(
        StackName=name, TemplateBody=json.dumps(template)
    )


def with_alarms(target: SmokeTarget, alarms: dict[str, str]) -> SmokeTarget:
    """The target with the stack's alarms (logical id → name), each one created in CloudWatch."""
    for alarm_name in alarms.values():
        target.clients("cloudwatch").put_metric_alarm(
            AlarmName=alarm_name,
            Namespace="waitgate",
            MetricName="Errors",
            Statistic="Sum",
            Period=60,
            EvaluationPeriods=1,
            Threshold=0,
            ComparisonOperator="GreaterThanThreshold",
        )
    return replace(target, alarms=alarms)


def every_alarm() -> dict[str, str]:
    return {logical_id: f"prod-{logical_id}" for logical_id in template_alarms()}


def test_a_deployed_stacks_outputs_are_read_from_cloudformation() -> None:
    # Given a deployed stack with waitgate's outputs (no samples)
    deploy("prod", OUTPUTS)
    # When the smoke reads it
    target = deployed_target("prod", REGION)
    # Then it has the outputs, the secret prefix of its webhook sources, and no durable sample
    assert (target.api_url, target.interrupts_table) == (OUTPUTS["ApiUrl"], OUTPUTS["InterruptsTableName"])
    assert target.webhooks_url == OUTPUTS["ApiUrl"] + "/webhooks"
    assert target.webhook_secret_prefix == "prod/webhooks/"
    assert target.durable_function is None
    # And with the samples, their durable function's alias
    alias = "arn:aws:lambda:us-east-1:123456789012:function:prod-approval-sample:live"
    deploy("with-samples", {**OUTPUTS, "ApprovalSampleFunctionAlias": alias})
    assert deployed_target("with-samples", REGION).durable_function == alias


def test_every_alarm_of_the_template_present_passes_the_check() -> None:
    deploy("prod", OUTPUTS)
    target = with_alarms(deployed_target("prod", REGION), every_alarm())
    assert check_alarms(target, 1.0).startswith(f"{len(template_alarms())} alarms")


def test_a_stack_that_is_not_waitgates_is_refused_by_name() -> None:
    deploy("other", {"ApiUrl": OUTPUTS["ApiUrl"]})
    with pytest.raises(TargetError, match="no output InterruptStateMachineArn"):
        deployed_target("other", REGION)
    with pytest.raises(TargetError, match="missing"):
        deployed_target("missing", REGION)


def test_an_alarm_the_template_declares_but_the_stack_lacks_fails_the_check() -> None:
    # Given a stack deployed from an older template: one alarm of today's template is not in it
    alarms = every_alarm()
    lacking = sorted(alarms)[0]
    del alarms[lacking]
    deploy("old", OUTPUTS)
    target = with_alarms(deployed_target("old", REGION), alarms)
    # Then the alarm check fails, naming it
    with pytest.raises(CheckFailedError, match=f"the stack lacks: {lacking};"):
        check_alarms(target, 1.0)


def test_an_alarm_deleted_from_cloudwatch_fails_the_check() -> None:
    # Given a deployed stack one of whose alarms someone deleted by hand
    deploy("prod", OUTPUTS)
    target = with_alarms(deployed_target("prod", REGION), every_alarm())
    deleted = sorted(target.alarms)[-1]
    target.clients("cloudwatch").delete_alarms(AlarmNames=[target.alarms[deleted]])
    # Then the alarm check fails, naming it
    with pytest.raises(CheckFailedError, match=f"not in CloudWatch: {deleted}"):
        check_alarms(target, 1.0)
