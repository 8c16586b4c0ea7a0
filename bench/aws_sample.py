"""AWS's documented human-approval sample (Step Functions developer guide, "Deploying an example human
approval project"), as the baseline of bench/cost.py: an API Gateway REST API, two Lambda functions and a
raw task token in an e-mail link, no state of its own.

Its state machine: a `Lambda Callback` Task (`lambda:invoke.waitForTaskToken`) whose function e-mails
the approver through SNS with an approve and a reject link (`GET /execution?action=...&taskToken=...`),
then a Choice on the answer and a Pass state. The link's Lambda function answers the task with
SendTaskSuccess. Both functions are the sample's Node.js ones, written here in Python so that the bench
can run and time them on moto beside ours; the sample's CloudFormation gives them Lambda's defaults:
128 MB, x86_64.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

MEMORY_MB = 128
ARCHITECTURE = "x86_64"
API = "https://abc123.execute-api.us-east-1.amazonaws.com/states"

DEFINITION: dict[str, Any] = {
    "Comment": "A Human approval sample, as the Step Functions developer guide deploys it",
    "StartAt": "Lambda Callback",
    "TimeoutSeconds": 3600,
    "States": {
        "Lambda Callback": {
            "Type": "Task",
            "Resource": "arn:aws:states:::lambda:invoke.waitForTaskToken",
            "Parameters": {
                "FunctionName": "LambdaHumanApprovalSendEmailFunction",
                "Payload": {"ExecutionContext.$": "$$", "APIGatewayEndpoint": API},
            },
            "Next": "ManualApprovalChoiceState",
        },
        "ManualApprovalChoiceState": {
            "Type": "Choice",
            "Choices": [
                {
                    "Variable": "$.Status",
                    "StringEquals": "Approved! Task approved by ...",
                    "Next": "ApprovedPassState",
                },
                {
                    "Variable": "$.Status",
                    "StringEquals": "Rejected! Task rejected by ...",
                    "Next": "RejectedPassState",
                },
            ],
        },
        "ApprovedPassState": {"Type": "Pass", "End": True},
        "RejectedPassState": {"Type": "Pass", "End": True},
    },
}


def approval_message(event: dict[str, Any]) -> tuple[str, str]:
    """LambdaHumanApprovalSendEmailFunction's subject and text: the approve and reject links."""
    context = event["ExecutionContext"]
    name, machine = context["Execution"]["Name"], context["StateMachine"]["Name"]
    token = quote(context["Task"]["Token"], safe="")
    base = f"{event['APIGatewayEndpoint']}/execution?ex={name}&sm={machine}&taskToken={token}"
    message = (
        "Welcome! \n\nThis is an email requiring an approval for a step functions execution. \n\n"
        f'Check the following information and click "Approve" link if you want to approve. \n\n'
        f"Execution Name -> {name}\n\nApprove {base}&action=approve\n\nReject {base}&action=reject\n\n"
        "Thanks for using Step functions!"
    )
    return "Required approval from AWS Step Functions", message


def send_email(event: dict[str, Any], sns: Any, topic_arn: str) -> None:
    """LambdaHumanApprovalSendEmailFunction: the approve and reject links, e-mailed through SNS."""
    print("event= " + json.dumps(event))
    subject, message = approval_message(event)
    sns.publish(TopicArn=topic_arn, Subject=subject, Message=message)


def send_nothing(event: dict[str, Any]) -> None:
    """The same function with no notice: the Task's invocation that hands out the token, no more."""
    print("event= " + json.dumps(event))


def send_ses(event: dict[str, Any], sesv2: Any, sender: str, recipient: str) -> None:
    """The same function sending its e-mail with SES v2 (one recipient) instead of an SNS topic."""
    print("event= " + json.dumps(event))
    subject, message = approval_message(event)
    sesv2.send_email(
        FromEmailAddress=sender,
        Destination={"ToAddresses": [recipient]},
        Content={"Simple": {"Subject": {"Data": subject}, "Body": {"Text": {"Data": message}}}},
    )


def send_slack(event: dict[str, Any], api_url: str, bot_token: str, channel: str) -> None:
    """The same function posting its text (the two links) to Slack with chat.postMessage."""
    import urllib.request

    print("event= " + json.dumps(event))
    _, message = approval_message(event)
    request = urllib.request.Request(
        api_url + "chat.postMessage",
        data=json.dumps({"channel": channel, "text": message}).encode(),
        headers={"Content-Type": "application/json; charset=utf-8", "Authorization": f"Bearer {bot_token}"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert json.load(answer)["ok"], "the Slack stand-in refused the post"


def approval(event: dict[str, Any], sfn: Any) -> dict[str, Any]:
    """LambdaApprovalFunction: the link's click (API Gateway's proxy event) answers the task."""
    print("Event= " + json.dumps(event))
    query = event["queryStringParameters"]
    approved = query["action"] == "approve"
    status = "Approved! Task approved by ..." if approved else "Rejected! Task rejected by ..."
    sfn.send_task_success(output=json.dumps({"Status": status}), taskToken=query["taskToken"])
    location = (
        f"https://console.aws.amazon.com/states/home?region=us-east-1#/executions/details/{query['ex']}"
    )
    return {"statusCode": 302, "headers": {"Location": location}}


def click_event(execution_name: str, token: str, action: str = "approve") -> dict[str, Any]:
    """The REST API's proxy event of the approver's click on the e-mailed link."""
    return {
        "resource": "/execution",
        "path": "/execution",
        "httpMethod": "GET",
        "queryStringParameters": {
            "action": action,
            "ex": execution_name,
            "sm": "HumanApproval",
            "taskToken": token,
        },
        "requestContext": {"stage": "states", "requestId": "sample", "httpMethod": "GET"},
        "headers": {"Accept": "text/html"},
    }
