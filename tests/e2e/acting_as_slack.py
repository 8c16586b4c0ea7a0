"""The local stack's channels as a test sees them: fresh principals with contact points, runs to start,
the inbox by channel, clicks posted as Slack posts them (and the Slack decider done with them: the
public function answers before the click is decided), the Slack stand-in's recorded calls and
failures, and the run's debug events."""

from __future__ import annotations

import json
import urllib.request
import uuid
from typing import Any

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.waiting import wait_for
from tests.support.slack_requests import button, click_body, signed_headers

TEAM = "TLOCAL0001"


class People:
    """Fresh principals with contact points: name → Slack member id."""

    def __init__(self, stack: LocalStackHandle, *names: str, slack: bool = True) -> None:
        suffix = uuid.uuid4().hex[:6].upper()
        self.stack = stack
        self.names = {name: f"{name}-{suffix.lower()}" for name in names}
        self.slack = {name: f"U{name.upper()[:3]}{suffix}" for name in names}
        for name, principal in self.names.items():
            arguments = ["--principal", principal, "--email", f"{principal}@example.com"]
            if slack:
                arguments += ["--slack-user", self.slack[name]]
            done = run_local(["directory", "set-contact", *arguments], stack.environment)
            assert done.returncode == 0, done.stderr

    def __getitem__(self, name: str) -> str:
        return self.names[name]


def approval(approvers: list[str], **data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "ship",
        "data": {
            "artifactId": "r42",
            "artifactType": "release",
            "title": "Ship release 42?",
            "description": "Release 42 goes to production.",
            "actions": ["accept", "reject", "refine"],
            "approversList": approvers,
            **data,
        },
    }


def start(stack: LocalStackHandle, interrupt: dict[str, Any]) -> tuple[str, str]:
    run_id = f"channels-{uuid.uuid4().hex[:10]}"
    arn = stack.sfn.start_execution(
        stateMachineArn=stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"interrupt": interrupt}),
    )["executionArn"]
    return run_id, arn


def inbox(stack: LocalStackHandle, run_id: str, *filters: str) -> list[dict[str, Any]]:
    listed = run_local(["dev-inbox", "--json", "--run-id", run_id, *filters], stack.environment)
    return [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]


def delivered(stack: LocalStackHandle, run_id: str, recipient: str, channel: str) -> dict[str, Any]:
    def found() -> dict[str, Any] | None:
        notices = inbox(stack, run_id, "--recipient", recipient, "--channel", channel)
        assert len(notices) <= 1, notices
        return notices[0] if notices else None

    notice: dict[str, Any] = wait_for(found)
    return notice


def press(
    stack: LocalStackHandle, message: dict[str, Any], action: str, slack_user: str, **signing: Any
) -> tuple[int, bytes]:
    pressed = button(message["blocks"], f"waitgate:{action}")
    body = click_body(
        pressed, slack_user, message["channel"], message["ts"], TEAM, signing.pop("action_ts", None)
    )
    headers = signing.pop("headers", None) or signed_headers(
        body, stack.description["slack"]["signingSecret"], **signing
    )
    return post_interaction(stack, body, headers)


def post_interaction(stack: LocalStackHandle, body: str, headers: dict[str, str]) -> tuple[int, bytes]:
    answer = stack.http.request("POST", "/channels/slack/interactions", data=body.encode(), headers=headers)
    return answer.status, answer.body


def clicks_decided(stack: LocalStackHandle) -> None:
    """Wait until the Slack decider is done with every click acknowledged so far: the clicks queue
    holds none, visible or in flight (a click is deleted once decided; one that failed comes back)."""
    sqs = stack.client("sqs")
    url = stack.description["queueUrls"]["SlackClicksQueue"]
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]

    def empty() -> bool:
        counts = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"]
        return all(counts.get(name) == "0" for name in names)

    wait_for(empty, what="the Slack decider to decide every acknowledged click")


def slack_calls(stack: LocalStackHandle, method: str) -> list[dict[str, Any]]:
    url = stack.description["slack"]["apiUrl"].replace("/api/", "/_standin/calls")
    with urllib.request.urlopen(url, timeout=10) as answer:
        calls: list[dict[str, Any]] = json.load(answer)
    return [call for call in calls if call["method"] == method]


def standin_failures(stack: LocalStackHandle, method: str, failure: dict[str, Any] | None = None) -> None:
    url = stack.description["slack"]["apiUrl"].replace("/api/", "/_standin/failures")
    data = json.dumps(failure).encode() if failure else None
    request = urllib.request.Request(url, data=data, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        answer.read()


def events(stack: LocalStackHandle, run_id: str) -> list[dict[str, Any]]:
    """The run's debug events; none while its execution has not yet recorded it (a 404 then: a probe
    right after the start can come before the Task's first write)."""
    answer = stack.http.get(
        f"/runs/{run_id}/events?mode=debug&limit=200", token=stack.jwt("ops", "runs:read")
    )
    if answer.status == 404 and answer.json()["code"] == "not_found":
        return []
    assert answer.status == 200, answer.body
    found: list[dict[str, Any]] = answer.json()["events"]
    return found


def of_type(found: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in found if event["type"] == kind]


def interrupt_status(stack: LocalStackHandle, run_id: str) -> str:
    item = stack.dynamodb.get_item(
        TableName=stack.table_names["InterruptsTable"],
        Key={"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "NODE#Interrupt"}},
        ConsistentRead=True,
    ).get("Item")
    return str(item["status"]["S"]) if item else "none"


def finished(stack: LocalStackHandle, arn: str) -> dict[str, Any]:
    def ended() -> dict[str, Any] | None:
        execution: dict[str, Any] = stack.sfn.describe_execution(executionArn=arn)
        return None if execution["status"] == "RUNNING" else execution

    execution: dict[str, Any] = wait_for(ended)
    assert execution["status"] == "SUCCEEDED", execution
    return execution


def updated_message(stack: LocalStackHandle, message: dict[str, Any]) -> dict[str, Any]:
    def update() -> dict[str, Any] | None:
        calls = [
            c
            for c in slack_calls(stack, "chat.update")
            if (c["arguments"]["channel"], c["arguments"]["ts"]) == (message["channel"], message["ts"])
        ]
        return calls[-1]["arguments"] if calls else None

    arguments: dict[str, Any] = wait_for(update)
    return arguments


def token_subject(link: str) -> str:
    import base64

    claims = link.rsplit("/", 1)[1].split(".")[3]
    decoded: dict[str, Any] = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
    return str(decoded["sub"])
