"""Acknowledge, then decide, on moto with the template's own clicks queue: the public function checks
Slack's signature, queues the parsed click and answers 200 with nothing decided; the Slack decider
decides it from the queue. The queue delivers at least once and Slack may press twice: the resolve
path decides once (its idempotency record, then its conditional writes). A click whose decision could
not start is reported as the batch's failure and comes back after a short backoff."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from local.standins.slack_api import SlackApp, SlackStandInServer, SlackWebApiStandIn
from local.template.sam_template import load_template
from tests.integration.conftest import REGION, create_table_from_template
from tests.integration.test_slack_fuzz import slack_event
from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.event_schema import stored_events
from tests.support.handlers import Handler, sample_event
from tests.support.slack_requests import click_body, signed_headers
from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
from waitgate.adapters.dynamodb_sent_messages import DynamoDbSentMessages
from waitgate.channels.contacts import ContactPoints
from waitgate.channels.sent_messages import SentMessage
from waitgate.run.records import RunRef

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TEAM, DM, TS = "T0TEST", "D0ALICE", "1764496000.000100"
APPROVAL = sample_event("request_interrupt")["interrupt"]


@dataclass
class Clicks:
    sqs: Any
    url: str
    arn: str
    dead_letters: str
    slack: SlackStandInServer

    def event(self, wait_seconds: int = 0) -> dict[str, Any]:
        """What Lambda's poller hands the decider: the queue's messages as SQS records (a long poll
        of `wait_seconds` returns as soon as one is visible)."""
        messages = self.sqs.receive_message(
            QueueUrl=self.url,
            MaxNumberOfMessages=10,
            MessageSystemAttributeNames=["All"],
            WaitTimeSeconds=wait_seconds,
        ).get("Messages", [])
        return {"Records": [self.record(m) for m in messages]}

    def record(self, message: dict[str, Any]) -> dict[str, Any]:
        return {
            "messageId": message["MessageId"],
            "receiptHandle": message["ReceiptHandle"],
            "body": message["Body"],
            "attributes": message["Attributes"],
            "messageAttributes": {},
            "md5OfBody": message["MD5OfBody"],
            "eventSource": "aws:sqs",
            "eventSourceARN": self.arn,
            "awsRegion": REGION,
        }

    def told(self) -> list[str]:
        """The ephemeral replies Slack was asked to show."""
        with urllib.request.urlopen(self.slack.api_url.replace("/api/", "/_standin/calls"), timeout=10) as r:
            calls = json.load(r)
        return [c["arguments"]["text"] for c in calls if c["method"] == "chat.postEphemeral"]


def template_queue(sqs: Any, logical_id: str, **attributes: str) -> tuple[str, str]:
    """A queue with the template's own timeouts and retention (url, arn)."""
    properties = load_template()["Resources"][logical_id]["Properties"]
    kept = {k: str(properties[k]) for k in ("VisibilityTimeout", "MessageRetentionPeriod") if k in properties}
    url = sqs.create_queue(QueueName=logical_id, Attributes={**kept, **attributes})["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    return url, arn


@pytest.fixture
def clicks(environment: None, dynamodb: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Clicks]:
    sqs = boto3.client("sqs", region_name=REGION)
    dead_url, dead_arn = template_queue(sqs, "SlackClicksDeadLetterQueue")
    redrive = load_template()["Resources"]["SlackClicksQueue"]["Properties"]["RedrivePolicy"]
    policy = json.dumps({"deadLetterTargetArn": dead_arn, "maxReceiveCount": redrive["maxReceiveCount"]})
    url, arn = template_queue(sqs, "SlackClicksQueue", RedrivePolicy=policy)
    app = SlackApp(bot_token="xoxb-test", signing_secret=SECRET, team_id=TEAM)
    secrets = boto3.client("secretsmanager", region_name=REGION)
    secrets.create_secret(Name="waitgate-test/slack/default", SecretString=app.secret_string())
    slack = SlackStandInServer(SlackWebApiStandIn(app, lambda message, updated: None))
    slack.start()
    directory = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-clicks")
    for name, value in {
        "DIRECTORY_TABLE_NAME": directory,
        "SLACK_SECRET_PREFIX": "waitgate-test/slack/",
        "SLACK_API_URL": slack.api_url,
        "SLACK_CLICKS_QUEUE_URL": url,
    }.items():
        monkeypatch.setenv(name, value)
    from waitgate.wiring import composition

    composition.forget_instances()
    DynamoDbContacts(boto3.client("dynamodb", region_name=REGION), directory).set_contact(
        "default", "alice", ContactPoints(slack_user="U0ALICE")
    )
    try:
        yield Clicks(sqs, url, arn, dead_url, slack)
    finally:
        slack.stop()
        composition.forget_instances()


def posted_approval(table_name: str, **data: Any) -> SuspendedRun:
    """A suspended approval for alice, and the Slack message waitgate posted her for it."""
    run = WorkflowHarness().suspend(
        {**APPROVAL, "data": {**APPROVAL["data"], "approversList": ["alice"], **data}}
    )
    Handler("request_interrupt")(run.task_event)
    message = SentMessage(
        "slack", "alice", TS, DM, notice_id="n1", kind="approval", buttons=("accept", "reject")
    )
    DynamoDbSentMessages(boto3.client("dynamodb", region_name=REGION), table_name).record(
        RunRef("default", run.run_id), "Interrupt", interrupt_id(table_name, run), message
    )
    return run


def node(table_name: str, run: SuspendedRun) -> dict[str, Any]:
    item: dict[str, Any] = boto3.client("dynamodb", region_name=REGION).get_item(
        TableName=table_name,
        Key={"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}},
        ConsistentRead=True,
    )["Item"]
    return item


def interrupt_id(table_name: str, run: SuspendedRun) -> str:
    return str(node(table_name, run)["interruptId"]["S"])


def press(table_name: str, run: SuspendedRun, action: str = "accept", **signing: Any) -> dict[str, Any]:
    """alice's click as Slack posts it, to the public function."""
    value = json.dumps(
        {"t": "default", "r": run.run_id, "n": "Interrupt", "i": interrupt_id(table_name, run)}
    )
    pressed = {
        "action_id": f"waitgate:{action}",
        "text": {"type": "plain_text", "text": action},
        "value": value,
    }
    body = click_body(pressed, "U0ALICE", DM, TS, TEAM, signing.pop("action_ts", None))
    answer: dict[str, Any] = Handler("slack_interactions")(
        slack_event(body.encode(), signed_headers(body, SECRET, **signing), None)
    )
    return answer


def resolved(table_name: str, dynamodb: Any) -> list[dict[str, Any]]:
    """The table's interrupt.resolved events (each test's table holds its one run)."""
    return [e for e in stored_events(dynamodb, table_name) if e["type"] == "interrupt.resolved"]


def test_a_click_is_answered_with_nothing_decided_and_decided_from_the_queue(
    clicks: Clicks, dynamodb: Any, table_name: str
) -> None:
    run = posted_approval(table_name)
    # When alice presses Accept
    answer = press(table_name, run)
    # Then Slack has its 200 with an empty body, and nothing is decided yet
    assert (answer["statusCode"], answer["body"]) == (200, "")
    assert node(table_name, run)["status"]["S"] == "pending"
    # And one message waits on the clicks queue: the click's ids, nothing else of Slack's body
    event = clicks.event()
    (record,) = event["Records"]
    body = record["body"]
    for unqueued in ("deprecated-verification-token", "response_url", "hooks.slack", "trigger_id", "v0="):
        assert unqueued not in body
    assert json.loads(body)["user"] == "U0ALICE" and len(body) < 1024
    # When the decider takes it
    assert Handler("decide_slack_clicks")(event) == {"batchItemFailures": []}
    # Then the approval is resolved as alice, once, and she needs no telling
    item = node(table_name, run)
    assert item["status"]["S"] == "resolved"
    assert json.loads(item["resumeValue"]["S"])["decidedBy"] == "alice"
    assert len(resolved(table_name, dynamodb)) == 1 and not clicks.told()


def test_a_click_the_queue_delivers_again_or_pressed_again_decides_once(
    clicks: Clicks, dynamodb: Any, table_name: str
) -> None:
    run = posted_approval(table_name)
    assert press(table_name, run, action_ts="1764496920.000001")["statusCode"] == 200
    event = clicks.event()
    decider = Handler("decide_slack_clicks")
    assert decider(event) == {"batchItemFailures": []}
    decided = node(table_name, run)
    # When SQS hands the same message over again (at least once: a decider that timed out after resolving)
    assert decider(event) == {"batchItemFailures": []}
    # Then its idempotency record answers as before: nothing changed, nobody is told anything
    assert node(table_name, run) == decided and not clicks.told()
    # When alice presses Reject a moment later (another click: a new action_ts, a key of its own)
    assert press(table_name, run, "reject", action_ts="1764496921.000001")["statusCode"] == 200
    assert decider(clicks.event()) == {"batchItemFailures": []}
    # Then the conditional write refuses a second decision, and she alone is told so
    assert node(table_name, run)["resumeValue"] == decided["resumeValue"]
    assert len(resolved(table_name, dynamodb)) == 1
    assert any("already decided" in text for text in clicks.told())


def test_a_click_whose_decision_cannot_start_fails_alone_and_comes_back_soon(
    clicks: Clicks, table_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = posted_approval(table_name)
    press(table_name, run)
    event = clicks.event()
    # Given Secrets Manager throttling the decider's read of the tenant's Slack app
    from botocore.exceptions import ClientError

    from waitgate.wiring import composition

    composition.forget_instances()
    secrets = composition.aws_client("secretsmanager")

    def throttled(**_: Any) -> Any:
        raise ClientError(
            {"Error": {"Code": "ThrottlingException", "Message": "slow down"}}, "GetSecretValue"
        )

    with monkeypatch.context() as patched:
        patched.setattr(secrets, "get_secret_value", throttled)
        # When the decider takes the batch
        answer = Handler("decide_slack_clicks")(event)
    # Then that click is the batch's failure, nothing is decided
    assert answer == {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}
    assert node(table_name, run)["status"]["S"] == "pending"
    # And it is visible again after its backoff (1 s), long before the queue's visibility timeout (90 s)
    (again,) = clicks.event(wait_seconds=10)["Records"]
    assert again["body"] == event["Records"][0]["body"]
    assert again["attributes"]["ApproximateReceiveCount"] == "2"
    # And decided then, as it was
    assert Handler("decide_slack_clicks")({"Records": [again]}) == {"batchItemFailures": []}
    assert node(table_name, run)["status"]["S"] == "resolved"


def test_a_refused_click_queues_nothing(clicks: Clicks, table_name: str) -> None:
    run = posted_approval(table_name)
    stale = press(table_name, run, timestamp=int(time.time()) - 301)
    assert stale["statusCode"] == 401 and json.loads(stale["body"])["code"] == "unauthorized"
    assert stale["headers"]["Content-Type"] == "application/problem+json"
    assert not clicks.event()["Records"]
