"""waitgate's side of bench/cost.py: one approval decided by one vote, in-process on moto as Lambda would
run it, for each way its approver hears of it, every handler timed warm and every billed call counted.

- **none**: the approver has no contact point: the request publishes its notice on the topic (the bus:
  the topic's own subscribers are told all the same) and nobody else is told; the approver decides over
  the HTTP API (`resolve_by_run`).
- **email**: the notice's `channels: ["email"]` reaches the e-mail deliverer's queue: `deliver_email`
  sends it with SES v2; the decision as above.
- **slack**: `deliver_slack` posts the message (to the local Slack Web API stand-in); the approver
  presses Accept: `slack_interactions` (over the HTTP API) checks the signature and queues the click,
  `decide_slack_clicks` decides it from the queue, and the stream's reader updates the message.

In every flow the table stream's one reader (`dispatch_stream`: the outbox, the Slack refresh) gets the
resolving commit, and `run_lifecycle` the execution's end. An SNS e-mail subscription on the topic
(docs/channels.md, "your own subscriptions") is the **none** flow plus one SNS e-mail per publish.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.cost_model import Decision, Invocation, logged_bytes, timed, transitions_of
from bench.dynamodb_capacity import Capacity
from bench.samples import APPROVAL

WARMUP, MEASURED = 3, 15
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TEAM = "T0BENCH"
APPROVERS = {"none": "carol", "email": "alice", "slack": "bob"}
HANDLERS = {
    "none": ("request_interrupt", "resolve_by_run", "dispatch_stream", "run_lifecycle"),
    "email": ("request_interrupt", "deliver_email", "resolve_by_run", "dispatch_stream", "run_lifecycle"),
    "slack": ("request_interrupt", "deliver_slack", "slack_interactions", "decide_slack_clicks",
              "dispatch_stream", "run_lifecycle"),
}  # fmt: skip
# Lambda's pollers, per decision: a ReceiveMessage that got the message and its DeleteMessage per queue
# (the pollers' empty receives are not per decision); Slack's click is also sent to its queue.
SQS_REQUESTS = {"none": 0, "email": 2, "slack": 5}


@dataclass
class Meters:
    """What the waitgate side counts beside the handlers' durations: capacity, publishes, e-mails."""

    capacity: Capacity
    sqs: Any
    queues: dict[str, str]
    slack_posts: list[dict[str, Any]]
    publishes: list[str] = field(default_factory=list)
    mails: list[str] = field(default_factory=list)


def on_moto(slack_api_url: str, slack_posts: list[dict[str, Any]]) -> Meters:
    """The tables, topic, directory (each flow's approver), SES identity, Slack secret, the channels'
    queues and the clicks queue, and the counters on the handlers' own clients."""
    import boto3

    from bench.roundtrips import _environment
    from local.standins.slack_api import SlackApp
    from tests.integration.conftest import create_table_from_template
    from tests.integration.test_channel_flow import channel_queue, fresh_instances
    from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
    from waitgate.channels.contacts import ContactPoints
    from waitgate.wiring import composition

    _environment()
    sns, dynamodb, sqs = (boto3.client(name, region_name="us-east-1") for name in ("sns", "dynamodb", "sqs"))
    topic = sns.create_topic(Name="bench-notices")["TopicArn"]
    directory = create_table_from_template(dynamodb, "DirectoryTable", "bench-directory")
    boto3.client("sesv2", region_name="us-east-1").create_email_identity(EmailIdentity="waitgate@example.com")
    app = SlackApp(bot_token="xoxb-bench", signing_secret=SIGNING_SECRET, team_id=TEAM)
    boto3.client("secretsmanager", region_name="us-east-1").create_secret(
        Name="bench/slack/default", SecretString=app.secret_string()
    )
    clicks = sqs.create_queue(QueueName="bench-slack-clicks")["QueueUrl"]
    os.environ.update(
        TOPIC_ARN=topic, DIRECTORY_TABLE_NAME=directory, EMAIL_SENDER="waitgate@example.com",
        SLACK_API_URL=slack_api_url, SLACK_SECRET_PREFIX="bench/slack/", SLACK_CLICKS_QUEUE_URL=clicks,
    )  # fmt: skip
    fresh_instances()
    contacts = DynamoDbContacts(dynamodb, directory)
    contacts.set_contact("default", "alice", ContactPoints(email="alice@example.com"))
    contacts.set_contact("default", "bob", ContactPoints(slack_user="U0BOB"))
    queues = {
        "email": channel_queue(sqs, sns, topic, "EmailDeliverySubscription"),
        "slack": channel_queue(sqs, sns, topic, "SlackDeliverySubscription"),
        "clicks": clicks,
    }
    meters = Meters(Capacity(dynamodb), sqs, queues, slack_posts)
    meters.capacity.attach(composition.aws_client("dynamodb"))
    composition.aws_client("sns").meta.events.register(
        "before-call.sns.Publish", lambda **_: meters.publishes.append("Publish")
    )
    composition.aws_client("sesv2").meta.events.register(
        "before-call.sesv2.SendEmail", lambda **_: meters.mails.append("SendEmail")
    )
    return meters


def measure(channel: str, meters: Meters) -> Decision:
    """`channel`'s decision (none, email, slack), WARMUP then MEASURED approvals, per decision."""
    from tests.integration.workflow_harness import WorkflowHarness
    from tests.support.handlers import Handler

    sizes = template_sizes()
    names = HANDLERS[channel]
    handlers = {name: Handler(name) for name in names}
    decision = Decision(invocations={name: Invocation(name, *sizes[name]) for name in names})
    harness, capacity, logged = WorkflowHarness(), meters.capacity, 0
    for number in range(WARMUP + MEASURED):
        measuring = number >= WARMUP
        read, write, sent, mailed = capacity.read, capacity.write, len(meters.publishes), len(meters.mails)
        with logged_bytes() as written:
            _decide_one(channel, harness, handlers, decision.invocations, measuring, meters)
            logged_now = written()
        if measuring:
            decision.read_units += (capacity.read - read) / MEASURED
            decision.write_units += (capacity.write - write) / MEASURED
            decision.sns_publishes += (len(meters.publishes) - sent) / MEASURED
            decision.ses_emails += (len(meters.mails) - mailed) / MEASURED
            logged += logged_now
    decision.sqs_requests = SQS_REQUESTS[channel]
    decision.log_bytes = logged / MEASURED
    decision.http_api_requests = 1  # the decision (over the run surface, or Slack's interaction)
    decision.transitions = transitions_of(json.loads(Path("statemachines/interrupt.asl.json").read_text()))
    return decision


def template_sizes() -> dict[str, tuple[int, str]]:
    """Each function's memory and architecture in template.yaml."""
    from local.template.sam_template import load_template

    template = load_template()
    defaults = template["Globals"]["Function"]
    sizes = {}
    for resource in template["Resources"].values():
        properties = resource.get("Properties", {})
        code = properties.get("CodeUri", "")
        if resource["Type"] == "AWS::Serverless::Function" and code.startswith("functions/"):
            memory = int(properties.get("MemorySize", defaults["MemorySize"]))
            arch = (properties.get("Architectures") or defaults["Architectures"])[0]
            sizes[code.strip("/").split("/")[1]] = (memory, arch)
    return sizes


def _decide_one(
    channel: str,
    harness: Any,
    handlers: dict[str, Any],
    at: dict[str, Invocation],
    measuring: bool,
    meters: Meters,
) -> None:
    """One approval, from its request to its run's end, each handler timed as `at` counts it."""
    from tests.support.handlers import http_event

    approver = APPROVERS[channel]
    interrupt = {**APPROVAL, "data": {**APPROVAL["data"], "approversList": [approver]}}
    run = harness.suspend(json.loads(json.dumps(interrupt)))
    task = {**run.task_event, "executionArn": run.execution_arn}
    timed(at["request_interrupt"], measuring, lambda: handlers["request_interrupt"](task))
    if channel in ("email", "slack"):
        deliverer = f"deliver_{channel}"
        _delivered(meters, channel, lambda notices: timed(at[deliverer], measuring,
                                                          lambda: handlers[deliverer](notices)))  # fmt: skip
    if channel == "slack":
        _clicked(meters, handlers, at, measuring)
    else:
        event = http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}, sub=approver)
        answer = timed(at["resolve_by_run"], measuring, lambda: handlers["resolve_by_run"](event))
        assert answer["statusCode"] == 200, answer
    key = {"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    table = os.environ["TABLE_NAME"]
    item = meters.capacity.reader.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
    assert item["status"]["S"] == "resolved", item["status"]
    record = stream_event(item, "pending")  # the table stream's one reader: outbox, Slack refresh, cleanup
    timed(at["dispatch_stream"], measuring, lambda: handlers["dispatch_stream"](record))
    harness.wait_for_end(run.execution_arn)
    ended = ended_event(run.run_id, run.execution_arn)
    timed(at["run_lifecycle"], measuring, lambda: handlers["run_lifecycle"](ended))


def _delivered(meters: Meters, channel: str, deliver: Callable[[dict[str, Any]], Any]) -> None:
    from tests.integration.test_channel_flow import sqs_event

    notices = sqs_event(meters.sqs, meters.queues[channel])
    assert len(notices["Records"]) == 1, notices
    deliver(notices)
    meters.sqs.delete_message(
        QueueUrl=meters.queues[channel], ReceiptHandle=notices["Records"][0]["receiptHandle"]
    )


def _clicked(meters: Meters, handlers: dict[str, Any], at: dict[str, Invocation], measuring: bool) -> None:
    """bob presses Accept on the message he was just posted: acknowledged, queued, decided."""
    from tests.integration.test_channel_flow import sqs_event
    from tests.integration.test_slack_fuzz import slack_event
    from tests.support.slack_requests import button, click_body, signed_headers

    message = meters.slack_posts.pop()
    accept = button(message["blocks"], "waitgate:accept")
    body = click_body(accept, "U0BOB", message["channel"], message["ts"], TEAM)
    event = slack_event(body.encode(), signed_headers(body, SIGNING_SECRET), None)
    answer = timed(at["slack_interactions"], measuring, lambda: handlers["slack_interactions"](event))
    assert answer["statusCode"] == 200, answer
    click = sqs_event(meters.sqs, meters.queues["clicks"])
    assert len(click["Records"]) == 1, click
    outcome = timed(at["decide_slack_clicks"], measuring, lambda: handlers["decide_slack_clicks"](click))
    assert not (outcome or {}).get("batchItemFailures"), outcome
    meters.sqs.delete_message(
        QueueUrl=meters.queues["clicks"], ReceiptHandle=click["Records"][0]["receiptHandle"]
    )


def stream_event(item: dict[str, Any], old_status: str) -> dict[str, Any]:
    """The DynamoDB stream record of the resolving commit (before the inline delivery's mark)."""
    new = {k: v for k, v in item.items() if k not in ("deliveredAt", "deliveryOutcome")}
    old = {**new, "status": {"S": old_status}}
    record = {
        "eventID": "1",
        "eventName": "MODIFY",
        "eventSource": "aws:dynamodb",
        "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/bench/stream/2026",
        "dynamodb": {
            "Keys": {"pk": item["pk"], "sk": item["sk"]},
            "NewImage": new,
            "OldImage": old,
            "SequenceNumber": "1",
            "SizeBytes": 1,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
    }
    return {"Records": [record]}


def ended_event(run_id: str, execution_arn: str) -> dict[str, Any]:
    return {
        "version": "0",
        "id": "bench",
        "detail-type": "Step Functions Execution Status Change",
        "source": "aws.states",
        "account": "123456789012",
        "time": "2026-12-01T00:00:00Z",
        "region": "us-east-1",
        "resources": [execution_arn],
        "detail": {"name": run_id, "executionArn": execution_arn, "status": "SUCCEEDED"},
    }
