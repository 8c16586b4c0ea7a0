"""What becomes of an expiry, an escalation step or a run's end that fails: the functions EventBridge
Scheduler and EventBridge rules invoke asynchronously have an OnFailure destination, every schedule a
dead-letter queue, each queue an alarm; and a failing expiry, run on the local stack's resources,
reaches its OnFailure queue after Lambda's two retries. The clients' timeouts fit in every function's."""

from __future__ import annotations

import json
import time
from typing import Any

import boto3
import pytest

from local.patches import lambda_runtime
from local.patches.lambda_runtime import FunctionRegistry
from local.template.sam_template import load_template
from local.template.stack_resources import create_template_resources
from tests.support.untraced import UNTRACED
from waitgate.wiring import composition, durable_sdk

REGION = "us-east-1"


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def resources(template: dict[str, Any], kind: str) -> dict[str, Any]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def asynchronously_invoked(template: dict[str, Any]) -> set[str]:
    """Functions a schedule targets (the scheduler role may invoke them) or an EventBridge rule does."""
    functions = resources(template, "AWS::Serverless::Function")
    role = template["Resources"]["DeadlineSchedulerRole"]["Properties"]["Policies"]
    invoked = {
        str(arn["Fn::Sub"]).rsplit("${AWS::StackName}", 1)[-1]
        for policy in role
        for statement in policy["PolicyDocument"]["Statement"]
        if statement["Action"] == "lambda:InvokeFunction"
        for arn in statement["Resource"]
    }
    found = {
        name
        for name, function in functions.items()
        if any(
            str(function["Properties"].get("FunctionName", {}).get("Fn::Sub", "")).endswith(i)
            for i in invoked
        )
        or any(e["Type"] == "EventBridgeRule" for e in function["Properties"].get("Events", {}).values())
    }
    for rule in resources(template, "AWS::Events::Rule").values():
        found |= {
            t["Arn"]["Fn::GetAtt"][0] for t in rule["Properties"]["Targets"] if "Fn::GetAtt" in t["Arn"]
        }
    return found


def alarmed_queues(template: dict[str, Any]) -> set[str]:
    return {
        dimension["Value"]["Fn::GetAtt"][0]
        for alarm in resources(template, "AWS::CloudWatch::Alarm").values()
        if alarm["Properties"].get("MetricName") == "ApproximateNumberOfMessagesVisible"
        for dimension in alarm["Properties"]["Dimensions"]
    }


def test_every_asynchronously_invoked_function_sets_failures_aside_in_an_alarmed_queue(
    template: dict[str, Any],
) -> None:
    # Given the functions Scheduler and EventBridge invoke asynchronously
    invoked = asynchronously_invoked(template)
    assert {"ExpireInterruptFunction", "EscalateInterruptFunction", "RunLifecycleFunction"} <= invoked
    for name in invoked:
        config = template["Resources"][name]["Properties"].get("EventInvokeConfig")
        # Then each has Lambda's two retries and then an SQS OnFailure destination (else: discarded)
        assert config is not None, f"{name} has no EventInvokeConfig: a failed event would be discarded"
        assert config["MaximumRetryAttempts"] <= 2
        on_failure = config["DestinationConfig"]["OnFailure"]
        assert on_failure["Type"] == "SQS"
        queue = on_failure["Destination"]["Fn::GetAtt"][0]
        # And an alarm watches that queue
        assert queue in alarmed_queues(template), f"no alarm on {queue}"


def test_every_schedule_dead_letters_to_an_alarmed_queue_the_scheduler_role_may_send_to(
    template: dict[str, Any],
) -> None:
    # Given the dead-letter queue the code gives every schedule's target (SCHEDULE_DEAD_LETTER_ARN)
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    queue = variables["SCHEDULE_DEAD_LETTER_ARN"]["Fn::GetAtt"][0]
    assert template["Resources"][queue]["Type"] == "AWS::SQS::Queue"
    # Then Scheduler's role (it sends the dead letters) may send to it, and an alarm watches it
    statements = [
        s
        for policy in template["Resources"]["DeadlineSchedulerRole"]["Properties"]["Policies"]
        for s in policy["PolicyDocument"]["Statement"]
    ]
    assert {
        "Effect": "Allow",
        "Action": "sqs:SendMessage",
        "Resource": {"Fn::GetAtt": [queue, "Arn"]},
    } in statements
    assert queue in alarmed_queues(template)


def test_the_clients_timeouts_and_retries_fit_in_every_functions_timeout(template: dict[str, Any]) -> None:
    # Given the AWS clients' configuration (every attempt's connect + read, and the backoff between)
    config = composition.client_config()
    attempts = config.retries["total_max_attempts"]
    backoff = sum(min(2 ** (retry - 1), 20) for retry in range(1, attempts))  # botocore's bound
    worst = attempts * (config.connect_timeout + config.read_timeout) + backoff
    default = template["Globals"]["Function"]["Timeout"]
    # Then a call that hangs fails by itself, with room to say so, inside every function's timeout
    for name, function in resources(template, "AWS::Serverless::Function").items():
        timeout = function["Properties"].get("Timeout", default)
        assert worst + 2 <= timeout, f"{name}: a hung AWS call takes {worst} s of its {timeout} s"


def test_the_durable_callbacks_botocore_is_checked_with_a_clear_error() -> None:
    # Given a runtime's botocore older than the durable callback API, and the one in the lock
    with pytest.raises(durable_sdk.DurableSdkTooOldError, match=r"botocore >= 1\.42\.1.*1\.41\.6"):
        durable_sdk.check_durable_botocore("1.41.6")
    durable_sdk.check_durable_botocore()
    durable_sdk.check_durable_botocore("1.42.1")


@UNTRACED  # its CPU is outside the layer (tests/support/untraced.py)
def test_an_expiry_that_fails_three_times_reaches_its_on_failure_queue(aws: None) -> None:
    # Given the template's resources on moto, with the handlers run in-process as in the local stack
    registry = FunctionRegistry()
    lambda_runtime.install(registry)
    _, translated, context = create_template_resources(
        "http://127.0.0.1:3000", "http://127.0.0.1:3000/.local-issuer", registry
    )
    expire = str(context.physical_ids["ExpireInterruptFunction"].ref)
    queue_name = str(context.physical_ids["InvocationFailuresQueue"].attributes["QueueName"])
    sqs = boto3.client("sqs", region_name=REGION)
    queue_url = sqs.get_queue_url(QueueName=queue_name)["QueueUrl"]
    # When Scheduler hands it an event it fails on (the interrupt named by halves), asynchronously
    event = {"tenantId": "default", "runId": "r-1"}
    answer = boto3.client("lambda", region_name=REGION).invoke(
        FunctionName=expire, InvocationType="Event", Payload=json.dumps(event).encode()
    )
    assert answer["StatusCode"] == 202
    # Then after its first run and Lambda's two retries, Lambda's invocation record is in the queue
    deadline, messages = time.monotonic() + 30, []
    while not messages and time.monotonic() < deadline:
        messages = sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=1).get("Messages", [])
    assert messages, "the failed expiry never reached the OnFailure queue"
    record = json.loads(messages[0]["Body"])
    assert record["requestContext"]["condition"] == "RetriesExhausted"
    assert record["requestContext"]["approximateInvokeCount"] == 3
    assert record["requestPayload"] == event
    assert record["responsePayload"]["errorType"] == "KeyError"
    # And the queue's alarm exists
    alarms = boto3.client("cloudwatch", region_name=REGION).describe_alarms()["MetricAlarms"]
    watching = [a for a in alarms if {"Name": "QueueName", "Value": queue_name} in a.get("Dimensions", [])]
    assert [a["MetricName"] for a in watching] == ["ApproximateNumberOfMessagesVisible"]
    assert "InvocationFailuresAlarm" in translated["Resources"]
