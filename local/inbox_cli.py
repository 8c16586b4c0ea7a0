"""`waitgate dev-inbox`: the notifications the running local stack sent, with their links.

Messages stay in the inbox (read with a zero visibility timeout), so listing twice shows them again.
The links are personal resolve links: this command is for the machine's own developer.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import boto3

from local.state_dir import StateDir

MAX_ROUNDS = 50


def add_inbox_parser(commands: Any) -> None:
    inbox = commands.add_parser("dev-inbox", help="list the notifications the local stack sent, with links")
    inbox.add_argument("--recipient", help="only those for this principal")
    inbox.add_argument("--run-id", help="only those of this run")
    inbox.add_argument("--json", action="store_true", help="one JSON object per line")


def run_inbox(arguments: argparse.Namespace) -> int:
    description = StateDir.from_environment().read_local_json() or {}
    if not description.get("inboxQueueUrl"):
        print("waitgate dev-inbox: no local stack is running (start it with: waitgate dev)", file=sys.stderr)
        return 1
    notices = [
        notice
        for notice in received_notices(description)
        if arguments.recipient in (None, notice["recipient"]) and arguments.run_id in (None, notice["runId"])
    ]
    for notice in notices:
        print(json.dumps(notice) if arguments.json else _line(notice))
    if not notices and not arguments.json:
        print("(no notifications yet)")
    return 0


def received_notices(description: dict[str, Any]) -> list[dict[str, str]]:
    """Every notice in the inbox, oldest first, each once."""
    sqs = boto3.client(
        "sqs",
        endpoint_url=description["awsEndpointUrl"],
        region_name=description["region"],
        aws_access_key_id="local",  # moto takes any credentials; these are not secrets
        aws_secret_access_key="local",  # noqa: S106
    )
    seen: dict[str, dict[str, str]] = {}
    for _ in range(MAX_ROUNDS):
        answer = sqs.receive_message(
            QueueUrl=description["inboxQueueUrl"],
            MaxNumberOfMessages=10,
            VisibilityTimeout=0,
            WaitTimeSeconds=0,
            AttributeNames=["SentTimestamp"],
        )
        fresh = [m for m in answer.get("Messages", []) if m["MessageId"] not in seen]
        if not fresh:
            break
        for message in fresh:
            seen[message["MessageId"]] = notice_of(message)
    return sorted(seen.values(), key=lambda notice: notice["sentAt"])


def notice_of(message: dict[str, Any]) -> dict[str, str]:
    """What a person needs from one SNS envelope: who, what, which run, the subject and the link."""
    envelope = json.loads(message["Body"])
    attributes = {
        name: value.get("Value", "") for name, value in envelope.get("MessageAttributes", {}).items()
    }
    try:
        document = json.loads(envelope.get("Message", ""))
    except ValueError:
        document = {}
    document = document if isinstance(document, dict) else {}
    return {
        "sentAt": str(message.get("Attributes", {}).get("SentTimestamp", "0")).rjust(16, "0"),
        "recipient": attributes.get("recipient", ""),
        "kind": attributes.get("kind", ""),
        "runId": attributes.get("runId", ""),
        "subject": str(envelope.get("Subject") or document.get("subject", "")),
        "link": str(document.get("link", "")),
    }


def _line(notice: dict[str, str]) -> str:
    who = notice["recipient"] or "(agent side)"
    return f"{who:<16} {notice['kind']:<16} {notice['runId']:<24} {notice['subject']}\n    {notice['link']}"
