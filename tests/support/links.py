"""Signed-link helpers for tests: events of the token surfaces, the token secret, an inbox queue."""

from __future__ import annotations

import json
import secrets
import string
from dataclasses import dataclass
from typing import Any

from tests.support.handlers import sample_event

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def token_event(
    token: str,
    *,
    method: str = "GET",
    body: Any = None,
    accept: str = "application/json",
    raw_body: str | None = None,
) -> dict[str, Any]:
    """The sample API Gateway event of a token surface, re-addressed to `token`."""
    event = sample_event("resolve_by_token" if method == "POST" else "inspect_by_token")
    event["rawPath"] = f"/interrupts/{token}"
    event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} /interrupts/{{token}}"
    event["requestContext"]["http"].update(method=method, path=event["rawPath"])
    event["pathParameters"] = {"token": token}
    event["headers"]["accept"] = accept
    if method == "POST":
        event["body"] = raw_body if raw_body is not None else json.dumps(body)
    return event


def mint_event(
    run_id: str, node_id: str, body: Any, *, sub: str = "release-bot", scope: str = "interrupts:mint"
) -> dict[str, Any]:
    event = sample_event("mint_token")
    event["pathParameters"] = {"runId": run_id, "nodeId": node_id}
    event["rawPath"] = event["requestContext"]["http"]["path"] = f"/runs/{run_id}/interrupts/{node_id}/tokens"
    event["requestContext"]["authorizer"]["jwt"]["claims"].update(sub=sub, scope=scope)
    event["body"] = json.dumps(body)
    return event


def random_key() -> str:
    """What CloudFormation's GenerateSecretString makes here: 64 alphanumerics (base64url, 48 bytes)."""
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(64))


def generated_secret() -> str:
    """The secret as a fresh stack holds it: the generated key is a top-level member."""
    return json.dumps({"signingKid": "k1", "keys": {}, "k1": random_key()})


@dataclass
class Inbox:
    """An SQS queue subscribed to the notifications topic: what a program subscriber receives."""

    sqs: Any
    url: str

    @classmethod
    def subscribe(cls, sqs: Any, sns: Any, topic_arn: str) -> Inbox:
        url = sqs.create_queue(QueueName=f"inbox-{secrets.token_hex(4)}")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        sns.subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=arn)
        return cls(sqs, url)

    def envelopes(self) -> list[dict[str, Any]]:
        """Every SNS envelope received so far (removed from the queue)."""
        received: list[dict[str, Any]] = []
        while True:
            answer = self.sqs.receive_message(QueueUrl=self.url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
            messages = answer.get("Messages", [])
            if not messages:
                return received
            for message in messages:
                received.append(json.loads(message["Body"]))
                self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=message["ReceiptHandle"])
