"""The Slack interactivity endpoint under hostile bytes, headers and URLs, on moto: the signature is
checked first, so whatever a body holds, unsigned it is 401 problem+json; signed (Slack's own secret),
it is 200. Never a 5xx, and nothing of the run under attack changes, whatever the request: neither
when it is answered nor once the Slack decider has decided what it queued."""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import boto3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.conftest import REGION, create_table_from_template
from tests.integration.test_hostile_input import APPROVAL, Target, hostile_bytes, hostile_value
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler
from tests.support.hypothesis_profiles import examples

HOSTILE = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
SLACK_PREFIX = "waitgate-test/slack/"
header_values = st.text(
    st.characters(codec="latin-1", exclude_categories=["Cc"]), max_size=80
) | st.sampled_from(["", "v0=", "v0=" + "0" * 64, "²³", "9" * 5000, "-1", str(int(time.time())), "v1=abc"])
tenants = st.none() | st.sampled_from(
    ["default", "acme", "", "a" * 80, "bad tenant!", "../x", "ü", "default\n"]
)


@dataclass
class Slack:
    """The public function, and the Slack decider draining the clicks queue it fills."""

    answer: Handler
    decider: Handler
    sqs: Any
    queue_url: str
    queue_arn: str

    def __call__(self, event: dict[str, Any]) -> dict[str, Any]:
        response: dict[str, Any] = self.answer(event)
        self.decide_queued()
        return response

    def decide_queued(self) -> None:
        while messages := self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"]
        ).get("Messages", []):
            records = [
                {
                    "messageId": m["MessageId"],
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "attributes": m["Attributes"],
                    "messageAttributes": {},
                    "md5OfBody": m["MD5OfBody"],
                    "eventSource": "aws:sqs",
                    "eventSourceARN": self.queue_arn,
                    "awsRegion": REGION,
                }
                for m in messages
            ]
            assert self.decider({"Records": records}) == {"batchItemFailures": []}
            entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)]
            self.sqs.delete_message_batch(QueueUrl=self.queue_url, Entries=entries)


@pytest.fixture
def slack(environment: None, monkeypatch: pytest.MonkeyPatch) -> Slack:
    """The default tenant's Slack app (its secret), a directory for its members, the clicks queue,
    no Slack to talk to."""
    secrets = boto3.client("secretsmanager", region_name=REGION)
    secret = {"botToken": "xoxb-test", "signingSecret": SIGNING_SECRET, "teamId": "T0TEST"}
    secrets.create_secret(Name=f"{SLACK_PREFIX}default", SecretString=json.dumps(secret))
    directory = create_table_from_template(
        boto3.client("dynamodb", region_name=REGION), "DirectoryTable", "waitgate-directory-slack"
    )
    sqs = boto3.client("sqs", region_name=REGION)
    queue_url = sqs.create_queue(QueueName="waitgate-slack-clicks")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    monkeypatch.setenv("DIRECTORY_TABLE_NAME", directory)
    monkeypatch.setenv("SLACK_SECRET_PREFIX", SLACK_PREFIX)
    monkeypatch.setenv("SLACK_API_URL", "http://127.0.0.1:9/api/")  # an ephemeral reply fails fast
    monkeypatch.setenv("SLACK_CLICKS_QUEUE_URL", queue_url)
    from waitgate.wiring import composition

    composition.forget_instances()
    return Slack(Handler("slack_interactions"), Handler("decide_slack_clicks"), sqs, queue_url, queue_arn)


def slack_event(raw: bytes, headers: dict[str, str], tenant: str | None) -> dict[str, Any]:
    query = {} if tenant is None else {"tenant": tenant}
    return {
        "version": "2.0",
        "routeKey": "POST /channels/slack/interactions",
        "rawPath": "/channels/slack/interactions",
        "rawQueryString": urlencode(query),
        "queryStringParameters": query or None,
        "headers": {name.lower(): value for name, value in headers.items()},
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abcdef1234",
            "domainName": "api.example.com",
            "http": {
                "method": "POST",
                "path": "/channels/slack/interactions",
                "protocol": "HTTP/1.1",
                "sourceIp": "192.0.2.10",
                "userAgent": "Slackbot 1.0",
            },
            "requestId": "req-1",
            "routeKey": "POST /channels/slack/interactions",
            "stage": "$default",
            "time": "30/Nov/2026:10:00:00 +0000",
            "timeEpoch": 1764496800000,
        },
        "body": base64.b64encode(raw).decode("ascii"),
        "isBase64Encoded": True,
    }


_ages = itertools.count()


def signed(raw: bytes, secret: str = SIGNING_SECRET, age: int | None = None) -> dict[str, str]:
    """Slack's headers for `raw`; each request of a test at a timestamp of its own (within Slack's 5
    minutes), so one hypothesis draws twice is not refused as a replay."""
    stamp = str(int(time.time()) - (next(_ages) % 290 if age is None else age))
    digest = hmac.new(secret.encode(), f"v0:{stamp}:".encode() + raw, hashlib.sha256).hexdigest()
    return {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": f"v0={digest}",
    }


def click_with(target: Target, member: str, value: str) -> bytes:
    """A click on the approval under attack, with one hostile value where Slack puts its own."""
    record = json.dumps({"t": "default", "r": target.run.run_id, "n": "Interrupt", "i": "01ANY"})
    action = {"action_id": "waitgate:accept", "value": record, "action_ts": "1764496920.000001"}
    payload: dict[str, Any] = {
        "type": "block_actions",
        "team": {"id": "T0TEST"},
        "user": {"id": "U0ALICE"},
        "container": {"channel_id": "D0ALICE", "message_ts": "1764496000.000100"},
        "actions": [action],
        "trigger_id": f"{next(_ages)}.1.2",  # each click its own bytes: a draw made twice is no replay
    }
    text = json.dumps(payload)
    placeholder = {
        "action_ts": '"1764496920.000001"',
        "value": json.dumps(record),
        "user": '{"id": "U0ALICE"}',
    }
    text = text.replace(placeholder[member], value, 1)
    return ("payload=" + quote(text, safe="", errors="surrogatepass")).encode()


def answered(response: dict[str, Any], statuses: tuple[int, ...]) -> None:
    assert response["statusCode"] in statuses, response["body"]
    if response["statusCode"] >= 400:
        assert response["headers"]["Content-Type"] == "application/problem+json"
        assert json.loads(response["body"])["status"] == response["statusCode"]


@pytest.fixture
def target(environment: None, dynamodb: Any, table_name: str) -> Target:
    return Target(WorkflowHarness(), APPROVAL, dynamodb, table_name)


@HOSTILE
@given(
    body=hostile_bytes,
    headers=st.dictionaries(
        st.sampled_from(["x-slack-request-timestamp", "x-slack-signature", "content-type"]),
        header_values,
        max_size=3,
    ),
    tenant=tenants,
)
def test_unsigned_hostile_requests_are_401_before_anything_is_read(
    slack: Slack, target: Target, body: bytes, headers: dict[str, str], tenant: str | None
) -> None:
    before = target.state()
    answered(slack(slack_event(body, headers, tenant)), (401,))
    answered(slack(slack_event(body, signed(body, secret="another-secret"), tenant)), (401,))
    answered(slack(slack_event(body, signed(body, age=301), tenant)), (401,))
    assert target.state() == before


@HOSTILE
@given(body=hostile_bytes)
def test_signed_hostile_bodies_are_200_and_change_nothing(slack: Slack, target: Target, body: bytes) -> None:
    before = target.state()
    # (Slack signs UTF-8 text: bytes that are not cannot carry its signature)
    answered(slack(slack_event(body, signed(body), None)), (200, 401))
    assert target.state() == before


@HOSTILE
@given(member=st.sampled_from(["action_ts", "value", "user"]), value=hostile_value)
def test_signed_clicks_with_a_hostile_value_are_200_and_change_nothing(
    slack: Slack, target: Target, member: str, value: str
) -> None:
    before = target.state()
    body = click_with(target, member, value)
    answered(slack(slack_event(body, signed(body), None)), (200,))
    assert target.state() == before
