"""The webhooks out's resources as the template declares them: the stream reader finds the delivery
queue by the stack's name (its 4 KB environment has no room for the queue's), so the name the settings
derive is the queue's own; every function that touches it has exactly the rights it needs."""

from __future__ import annotations

from typing import Any

import pytest

from local.template.sam_template import load_template
from waitgate.wiring.settings import Settings


@pytest.fixture(scope="module")
def resources() -> dict[str, Any]:
    return dict(load_template()["Resources"])


def test_the_queue_the_settings_derive_from_the_stack_name_is_the_template_s(
    resources: dict[str, Any],
) -> None:
    template = load_template()
    parameter = template["Globals"]["Function"]["Environment"]["Variables"]["PUBLIC_BASE_URL_PARAMETER"]
    queue_name = resources["WebhookDeliveryQueue"]["Properties"]["QueueName"]
    assert (parameter, queue_name) == (
        {"Fn::Sub": "/${AWS::StackName}/public-base-url"},
        {"Fn::Sub": "${AWS::StackName}-webhooks"},
    )
    stack = "my-stack-1"
    derived = Settings(
        table_name="t", public_base_url_parameter=parameter["Fn::Sub"].replace("${AWS::StackName}", stack)
    )
    assert derived.webhook_queue == queue_name["Fn::Sub"].replace("${AWS::StackName}", stack)
    assert Settings(table_name="t").webhook_queue == ""  # no stack named: no webhooks out
    assert Settings(table_name="t", webhook_queue_name="q").webhook_queue == "q"


def test_only_the_fan_out_and_the_redrive_send_to_the_queue_and_only_the_deliverer_reads_it(
    resources: dict[str, Any],
) -> None:
    senders = {
        name
        for name, resource in resources.items()
        if resource["Type"] == "AWS::Serverless::Function"
        and {"Ref": "WebhookQueueSendPolicy"} in resource["Properties"].get("Policies", [])
    }
    assert senders == {"StreamDispatchFunction", "ManageSubscriptionsFunction"}
    consumers = {
        name
        for name, resource in resources.items()
        if resource["Type"] == "AWS::Serverless::Function"
        for event in resource["Properties"].get("Events", {}).values()
        if event["Type"] == "SQS"
        and event["Properties"]["Queue"] == {"Fn::GetAtt": ["WebhookDeliveryQueue", "Arn"]}
    }
    assert consumers == {"DeliverWebhookFunction"}
    # And the queue keeps a message longer than the longest plan, its visibility 6 x the deliverer's timeout
    queue = resources["WebhookDeliveryQueue"]["Properties"]
    deliverer = resources["DeliverWebhookFunction"]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * deliverer["Timeout"]
    attempts = load_template()["Parameters"]["WebhookAttempts"]["MaxValue"]
    assert queue["MessageRetentionPeriod"] > attempts * 43_200
    assert queue["RedrivePolicy"]["maxReceiveCount"] > attempts
