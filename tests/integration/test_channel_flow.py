"""The channels on moto, as deployed: the topic's notice reaches the e-mail queue through the
template's own filter policy, the deliverer sends it with SES v2, and what SES keeps is a message
with a text and an HTML part carrying the recipient's own link and nothing remote; the adapters of
contact points, the sent-messages ledger and the replay guard keep DynamoDB's semantics."""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from local.template.sam_template import load_template
from tests.integration.conftest import create_table_from_template
from tests.integration.durability_faults import hooked
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.event_schema import stored_events
from tests.support.handlers import Handler, sample_event
from tests.support.links import generated_secret
from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
from waitgate.adapters.dynamodb_sent_messages import DynamoDbReplayGuard, DynamoDbSentMessages
from waitgate.adapters.secrets_slack_workspaces import SecretsSlackWorkspaces
from waitgate.channels.contacts import ContactPoints
from waitgate.channels.sent_messages import SentMessage
from waitgate.errors import ValidationFailedError
from waitgate.run.records import RunRef

REGION = "us-east-1"
SENDER = "waitgate@example.com"
APPROVAL = sample_event("request_interrupt")["interrupt"]


def fresh_instances() -> None:
    from waitgate.wiring import composition

    composition.forget_instances()


def channel_queue(sqs: Any, sns: Any, topic_arn: str, logical_id: str) -> str:
    """A queue subscribed as the template subscribes the channel's (raw, its FilterPolicy)."""
    properties = load_template()["Resources"][logical_id]["Properties"]
    url = sqs.create_queue(QueueName=logical_id)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    sns.subscribe(
        TopicArn=topic_arn,
        Protocol="sqs",
        Endpoint=arn,
        Attributes={"RawMessageDelivery": "true", "FilterPolicy": json.dumps(properties["FilterPolicy"])},
    )
    return str(url)


@pytest.fixture
def channels(environment: None, dynamodb: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    sns, sqs = boto3.client("sns", region_name=REGION), boto3.client("sqs", region_name=REGION)
    topic_arn = sns.create_topic(Name="waitgate-notifications")["TopicArn"]
    directory = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-test")
    secrets = boto3.client("secretsmanager", region_name=REGION)
    monkeypatch.setenv(
        "TOKEN_SECRET_ARN", secrets.create_secret(Name="t", SecretString=generated_secret())["ARN"]
    )
    for name, value in {
        "TOPIC_ARN": topic_arn,
        "DIRECTORY_TABLE_NAME": directory,
        "EMAIL_SENDER": SENDER,
        "PUBLIC_BASE_URL": "https://links.example.com",
    }.items():
        monkeypatch.setenv(name, value)
    boto3.client("sesv2", region_name=REGION).create_email_identity(EmailIdentity=SENDER)
    fresh_instances()
    yield {
        "email": channel_queue(sqs, sns, topic_arn, "EmailDeliverySubscription"),
        "slack": channel_queue(sqs, sns, topic_arn, "SlackDeliverySubscription"),
        "sqs": sqs,
        "directory": directory,
    }
    fresh_instances()


def sqs_event(sqs: Any, url: str) -> dict[str, Any]:
    """What Lambda's poller hands the deliverer: the queue's messages as SQS records."""
    messages = sqs.receive_message(
        QueueUrl=url, MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"]
    ).get("Messages", [])
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": m["Attributes"],
                "messageAttributes": {},
                "md5OfBody": m["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": arn,
                "awsRegion": REGION,
            }
            for m in messages
        ]
    }


def sent_mail() -> list[Any]:
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.ses.models import ses_backends

    return list(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages)


def test_an_approver_with_an_address_gets_one_email_with_her_own_link(channels: dict[str, Any]) -> None:
    # Given alice with an e-mail address (and no Slack), bob with none, both asked to approve
    DynamoDbContacts(boto3.client("dynamodb"), channels["directory"]).set_contact(
        "default", "alice", ContactPoints(email="alice@example.com")
    )
    harness = WorkflowHarness()
    run = harness.suspend({**APPROVAL, "data": {**APPROVAL["data"], "approversList": ["alice", "bob"]}})
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    # When the e-mail deliverer takes what the topic put on its queue
    event = sqs_event(channels["sqs"], channels["email"])
    answer = Handler("deliver_email")(event)
    # Then only alice's notice was for e-mail (and none for Slack), and it was sent
    assert len(event["Records"]) == 1 and answer == {"batchItemFailures": []}
    assert not channels["sqs"].receive_message(QueueUrl=channels["slack"]).get("Messages")
    (message,) = sent_mail()
    parsed = email.message_from_string(message.raw_data, policy=email.policy.default)
    assert parsed["To"] == "alice@example.com" and SENDER in parsed["From"]
    text = parsed.get_body(preferencelist=("plain",)).get_content()
    html = parsed.get_body(preferencelist=("html",)).get_content()
    link = json.loads(event["Records"][0]["body"])["link"]
    assert link.startswith("https://links.example.com/interrupts/") and link in text and link in html
    assert "personal" in text and "personal" in html
    # And the HTML loads nothing: no src, no style sheet, no other URL than the link
    assert not re.search(r"\bsrc=|<link|url\(|@import", html)
    assert set(re.findall(r"https?://[^\s\"<]+", html)) == {link}
    # And a second delivery of the same notice sends nothing more
    Handler("deliver_email")({"Records": event["Records"]})
    assert len(sent_mail()) == 1


def ses_notice(channels: dict[str, Any], monkeypatch: pytest.MonkeyPatch, sender: str) -> dict[str, Any]:
    """A notice to alice queued for the e-mail deliverer, SES sending as `sender`."""
    monkeypatch.setenv("EMAIL_SENDER", sender)
    fresh_instances()
    DynamoDbContacts(boto3.client("dynamodb"), channels["directory"]).set_contact(
        "default", "alice", ContactPoints(email="alice@example.com")
    )
    run = WorkflowHarness().suspend({**APPROVAL, "data": {**APPROVAL["data"], "approversList": ["alice"]}})
    Handler("request_interrupt")(run.task_event)
    return {"run": run, "event": sqs_event(channels["sqs"], channels["email"])}


def test_ses_refusing_for_good_is_said_once_and_not_retried(
    channels: dict[str, Any], monkeypatch: pytest.MonkeyPatch, dynamodb: Any, table_name: str
) -> None:
    # Given a sender SES has not verified (MessageRejected: sending again cannot succeed)
    queued = ses_notice(channels, monkeypatch, "unverified@example.com")
    # When the deliverer tries
    answer = Handler("deliver_email")(queued["event"])
    # Then the message is not given back for a retry, nothing was sent, and the run's log says why, once
    assert answer == {"batchItemFailures": []}
    assert not sent_mail()
    failed = [e["payload"] for e in stored_events(dynamodb, table_name) if e["type"] == "notification.failed"]
    assert [(f["reason"], f["permanent"]) for f in failed] == [("MessageRejected", True)]


def test_ses_throttling_leaves_the_notice_for_a_retry(
    channels: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a verified sender, and SES throttling the send
    queued = ses_notice(channels, monkeypatch, SENDER)
    from waitgate.wiring import composition

    ses = composition.aws_client("sesv2")

    def throttled(**_: Any) -> tuple[Any, dict[str, Any]]:
        from local.patches.faults import throttled as answer

        return answer("SendEmail")

    # When the deliverer tries
    with hooked(ses, "before-call.sesv2.SendEmail", throttled):
        answer = Handler("deliver_email")(queued["event"])
    # Then the message is this batch's failure (the queue gives it again, later), and nothing was sent
    assert answer == {"batchItemFailures": [{"itemIdentifier": queued["event"]["Records"][0]["messageId"]}]}
    assert not sent_mail()


def test_contact_points_and_the_slack_member_map(dynamodb: Any) -> None:
    table = create_table_from_template(dynamodb, "DirectoryTable", "directory-contacts")
    contacts = DynamoDbContacts(dynamodb, table)
    contacts.set_contact("acme", "alice", ContactPoints("alice@example.com", "U0ALICE"))
    contacts.set_contact("acme", "ben", ContactPoints(slack_user="U0BEN"))
    assert contacts.contact_points("acme", "alice") == ContactPoints("alice@example.com", "U0ALICE")
    assert contacts.principal_of_slack_user("acme", "U0ALICE") == "alice"
    assert contacts.principal_of_slack_user("other", "U0ALICE") is None
    # A Slack id is one principal's at a time
    with pytest.raises(ValidationFailedError):
        contacts.set_contact("acme", "mallory", ContactPoints(slack_user="U0ALICE"))
    # A changed Slack id no longer maps to the principal; clearing everything removes the contact
    contacts.set_contact("acme", "alice", ContactPoints("alice@example.com", "U0ALICE2"))
    assert contacts.principal_of_slack_user("acme", "U0ALICE") is None
    assert contacts.principal_of_slack_user("acme", "U0ALICE2") == "alice"
    contacts.set_contact("acme", "ben", ContactPoints())
    assert [p for p, _ in contacts.contacts("acme")] == ["alice"]
    assert contacts.principal_of_slack_user("acme", "U0BEN") is None


def test_the_ledger_and_the_replay_guard(dynamodb: Any, table_name: str) -> None:
    run = RunRef("default", "run-1")
    ledger = DynamoDbSentMessages(dynamodb, table_name)
    message = SentMessage(
        "slack",
        "alice",
        "1.0001",
        "D0ALICE",
        "wf",
        "Ship?",
        "n1",
        kind="approval",
        buttons=("accept", "reject"),
    )
    reminder = SentMessage(
        "slack", "alice", "1.0002", "D0ALICE", "wf", "Ship?", "n2", kind="custom", buttons=()
    )
    assert ledger.find(run, "Gate", "I1", "slack", "alice", "n1") is None
    ledger.record(run, "Gate", "I1", message)
    ledger.record(run, "Gate", "I1", reminder)
    ledger.record(run, "Gate", "I1", SentMessage("email", "alice", "ses-1", notice_id="n1"))
    assert ledger.find(run, "Gate", "I1", "slack", "alice", "n1") == message
    assert ledger.of_interrupt(run, "Gate", "I1", "slack") == (message, reminder)
    assert ledger.of_interrupt(run, "Gate", "I2", "slack") == ()
    # a message kept before its buttons were: they are unknown (None), not "none"
    ledger.record(run, "Gate", "I3", SentMessage("slack", "ben", "1.0003", "D0BEN", notice_id="n3"))
    assert ledger.of_interrupt(run, "Gate", "I3", "slack")[0].buttons is None
    guard = DynamoDbReplayGuard(dynamodb, table_name)
    assert guard.first_use("t:1:v0=ab", 2_000_000_000) and not guard.first_use("t:1:v0=ab", 2_000_000_000)


def test_a_tenants_slack_app_comes_from_its_secret(aws: None) -> None:
    secrets = boto3.client("secretsmanager", region_name=REGION)
    secrets.create_secret(
        Name="stack/slack/acme",
        SecretString=json.dumps({"botToken": "xoxb-1", "signingSecret": "s", "teamId": "T1"}),
    )
    workspaces = SecretsSlackWorkspaces(lambda: secrets, "stack/slack/")
    acme = workspaces.workspace("acme")
    assert acme is not None and (acme.bot_token, acme.signing_secret, acme.team_id) == ("xoxb-1", "s", "T1")
    assert "xoxb-1" not in repr(acme) and workspaces.workspace("other") is None


def test_made_up_tenants_do_not_grow_what_an_instance_keeps(aws: None) -> None:
    from waitgate.adapters.secrets_slack_workspaces import MAX_KEPT

    secrets = boto3.client("secretsmanager", region_name=REGION)
    workspaces = SecretsSlackWorkspaces(lambda: secrets, "stack/slack/")
    for n in range(MAX_KEPT + 20):  # a request URL may name any tenant
        assert workspaces.workspace(f"nobody-{n}") is None
    assert len(workspaces._kept) == MAX_KEPT
