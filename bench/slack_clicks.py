"""Slack's 3-second limit, measured: how long `POST /channels/slack/interactions` takes to answer a
signed Accept click (the tenant's secret, the signature, the replay mark, the click queued: the Slack
decider decides it after; bench/slack_ack.py measures both cold), and how long a notice takes from the
execution's start to the Slack message being posted, on a local stack this bench starts (the Slack
Web API stand-in, SES on moto). 20 runs, one click each."""

from __future__ import annotations

import json
import statistics
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any

from slack_sdk.signature import SignatureVerifier

from bench.local_stack import BenchStack, Deadline
from bench.report import Row
from bench.samples import APPROVAL
from local.standins.inbox import InboxLog
from local.state.state_dir import StateDir
from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
from waitgate.channels.contacts import ContactPoints

GROUP = "slack"
RUNS = 20
LIMIT_SECONDS = 300
SLACK_LIMIT_MS = 3000


def _messages(stack: BenchStack, run_ids: set[str]) -> dict[str, dict[str, Any]]:
    notices = InboxLog(StateDir(stack.state_dir)).notices()
    return {n["runId"]: n for n in notices if n.get("channel") == "slack" and n.get("runId") in run_ids}


def _click(stack: BenchStack, message: dict[str, Any], slack_user: str) -> tuple[int, float]:
    """Accept pressed, as Slack posts it: the button echoed back, signed with the app's secret."""
    accept = next(
        e
        for b in message["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
        if e["action_id"] == "waitgate:accept"
    )
    payload = {
        "type": "block_actions",
        "team": {"id": "TLOCAL0001"},
        "user": {"id": slack_user},
        "container": {"type": "message", "channel_id": message["channel"], "message_ts": message["ts"]},
        "actions": [
            {"action_id": accept["action_id"], "value": accept["value"], "action_ts": f"{time.time():.6f}"}
        ],
    }
    body = urllib.parse.urlencode({"payload": json.dumps(payload)})
    stamp = str(int(time.time()))
    signature = SignatureVerifier(stack.description["slack"]["signingSecret"]).generate_signature(
        timestamp=stamp, body=body
    )
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": str(signature),
    }
    request = urllib.request.Request(
        stack.description["slack"]["interactionsUrl"], data=body.encode(), headers=headers
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, (time.perf_counter() - started) * 1000


def run() -> list[Row]:
    deadline = Deadline(LIMIT_SECONDS, "slack clicks")
    with BenchStack() as stack:
        contacts = DynamoDbContacts(
            stack.client("dynamodb"), str(stack.description["tableNames"]["DirectoryTable"])
        )
        sfn = stack.client("stepfunctions")
        started: dict[str, float] = {}
        people: dict[str, str] = {}
        for number in range(RUNS):
            principal, slack_user = f"approver-{number}", f"U0BENCH{number:03d}"
            contacts.set_contact("default", principal, ContactPoints(slack_user=slack_user))
            run_id = f"slack-{uuid.uuid4().hex[:8]}"
            interrupt = {**APPROVAL, "data": {**APPROVAL["data"], "approversList": [principal]}}
            started[run_id] = time.perf_counter()
            sfn.start_execution(
                stateMachineArn=stack.state_machine(), name=run_id, input=json.dumps({"interrupt": interrupt})
            )
            people[run_id] = slack_user
        posted: dict[str, float] = {}
        messages: dict[str, dict[str, Any]] = {}
        while len(messages) < RUNS:
            deadline.check()
            for run_id, notice in _messages(stack, set(started) - set(messages)).items():
                posted[run_id], messages[run_id] = time.perf_counter(), notice["message"]
            time.sleep(0.02)
        answers = [_click(stack, messages[run_id], people[run_id]) for run_id in messages]
    assert all(status == 200 for status, _ in answers), answers
    clicks = sorted(ms for _, ms in answers)
    notices = sorted((posted[r] - started[r]) * 1000 for r in posted)
    p95 = clicks[int(0.95 * (len(clicks) - 1))]
    return [
        Row(
            GROUP,
            "click answered, median",
            statistics.median(clicks),
            "ms",
            f"< {SLACK_LIMIT_MS} ms",
            statistics.median(clicks) < SLACK_LIMIT_MS,
        ),
        Row(GROUP, "click answered, p95", p95, "ms", f"< {SLACK_LIMIT_MS} ms", p95 < SLACK_LIMIT_MS),
        Row(
            GROUP,
            "click answered, slowest",
            clicks[-1],
            "ms",
            f"< {SLACK_LIMIT_MS} ms",
            clicks[-1] < SLACK_LIMIT_MS,
            "the first is a cold start",
        ),
        Row(
            GROUP,
            "start to Slack message, median",
            statistics.median(notices),
            "ms",
            note=f"{RUNS} runs started at once",
        ),
    ]
