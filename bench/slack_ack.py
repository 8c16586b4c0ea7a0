"""Slack's 3 seconds on a cold start: a Slack click acknowledged, then decided, each in a fresh Python
process (what a Lambda cold start pays for our code: the handler's import, then its first event),
against a local stack this bench starts: 100 clicks acknowledged, each in a process of its own (the
p99 of those, target ≤ 1 s: issue 34; the decision may finish after the 200), and the first 10 of
them decided, each in a process of its own too (the medians).

- **ack**: `slack_interactions` (the public function) answers one signed Accept click: the tenant's
  Slack secret, the signature, the replay mark, the click queued. Its queue is one of this bench's
  own on the stack's moto, so the stack's poller does not take the click first.
- **decide**: `decide_slack_clicks` (the Slack decider) decides that very click from the queue: the
  sent-messages record, the member's principal, the one resolve path. This is what the public
  function did before it answered, until clicks were acknowledged first (the old path also verified
  the signature: a little more than this).

Each process gets the environment the stack gave that function (read back from its Lambda
configuration), with AWS_ENDPOINT_URL at the stack's moto; every click is checked to be decided.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import statistics
import subprocess
import sys
import time
import urllib.parse
import uuid
from typing import Any

from bench.local_stack import BenchStack, Deadline, StackFailedError
from bench.report import Row, bound_seconds
from bench.samples import APPROVAL
from local.stack_process import REPO_ROOT
from local.standins.inbox import InboxLog
from local.state.state_dir import StateDir
from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
from waitgate.channels.contacts import ContactPoints

GROUP = "slack ack"
RUNS = 10  # clicks decided in a fresh process (the first RUNS of the CLICKS acknowledged)
CLICKS = 100  # clicks acknowledged, each in a fresh process: the p99's samples
COLD_CLICK_TARGET_MS = 1000
LIMIT_SECONDS = 600  # when run alone; `make bench` gives it its bound (bench/plan.py)
STOP_RESERVE_SECONDS = 30  # of the bound: the last click's processes, the stack's stop, the rows
SLACK_LIMIT_MS = 3000

PROBE = r"""
import importlib.util, json, sys, time
event = json.loads(sys.stdin.read())

class Context:
    function_name = "bench"
    function_version = "$LATEST"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:bench"
    aws_request_id = "bench-request"
    log_group_name = log_stream_name = "bench"
    def get_remaining_time_in_millis(self): return 15000

started, cpu_started = time.perf_counter(), time.process_time()
spec = importlib.util.spec_from_file_location("handler_under_test", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
imported = time.perf_counter()
answer = module.lambda_handler(event, Context())
answered, cpu_answered = time.perf_counter(), time.process_time()
print(json.dumps({"import_ms": (imported - started) * 1000, "first_ms": (answered - started) * 1000,
                  "first_cpu_ms": (cpu_answered - cpu_started) * 1000, "answer": answer}))
"""


class Clicks:
    """Approvals on Slack, one per process: each approver's message posted, then pressed and decided."""

    def __init__(self, stack: BenchStack, deadline: Deadline) -> None:
        self.stack, self.deadline = stack, deadline
        self.sqs = stack.client("sqs")
        self.queue_url = self.sqs.create_queue(QueueName=f"bench-slack-clicks-{uuid.uuid4().hex[:8]}")[
            "QueueUrl"
        ]
        attributes = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["QueueArn"])
        self.queue_arn = attributes["Attributes"]["QueueArn"]
        self.contacts = DynamoDbContacts(
            stack.client("dynamodb"), str(stack.description["tableNames"]["DirectoryTable"])
        )

    def posted(self, count: int) -> list[tuple[str, dict[str, Any], str]]:
        """`count` approvals, each for an approver of its own on Slack: (run, its message, member)."""
        people: dict[str, str] = {}
        for number in range(count):
            principal, member = f"acker-{uuid.uuid4().hex[:6]}", f"U0ACK{number:03d}"
            self.contacts.set_contact("default", principal, ContactPoints(slack_user=member))
            run_id = f"slack-ack-{uuid.uuid4().hex[:8]}"
            interrupt = {**APPROVAL, "data": {**APPROVAL["data"], "approversList": [principal]}}
            self.stack.client("stepfunctions").start_execution(
                stateMachineArn=self.stack.state_machine(),
                name=run_id,
                input=json.dumps({"interrupt": interrupt}),
            )
            people[run_id] = member
        messages: dict[str, dict[str, Any]] = {}
        while len(messages) < count:
            self.deadline.check()
            for notice in InboxLog(StateDir(self.stack.state_dir)).notices():
                if notice.get("channel") == "slack" and notice.get("runId") in people:
                    messages[notice["runId"]] = notice["message"]
            time.sleep(0.05)
        return [(run_id, messages[run_id], people[run_id]) for run_id in people]

    def http_event(self, message: dict[str, Any], member: str) -> dict[str, Any]:
        """Accept pressed, as API Gateway hands Slack's signed request to the public function."""
        accept = next(
            e
            for b in message["blocks"]
            if b["type"] == "actions"
            for e in b["elements"]
            if e["action_id"] == "waitgate:accept"
        )
        slack = self.stack.description["slack"]
        payload = {
            "type": "block_actions",
            "team": {"id": slack["teamId"]},
            "user": {"id": member},
            "container": {"type": "message", "channel_id": message["channel"], "message_ts": message["ts"]},
            "actions": [
                {
                    "action_id": accept["action_id"],
                    "value": accept["value"],
                    "action_ts": f"{time.time():.6f}",
                }
            ],
        }
        body = urllib.parse.urlencode({"payload": json.dumps(payload)})
        stamp = str(int(time.time()))
        digest = hmac.new(slack["signingSecret"].encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256)
        route = "POST /channels/slack/interactions"
        return {
            "version": "2.0",
            "routeKey": route,
            "rawPath": "/channels/slack/interactions",
            "rawQueryString": "",
            "headers": {
                "content-type": "application/x-www-form-urlencoded",
                "x-slack-request-timestamp": stamp,
                "x-slack-signature": f"v0={digest.hexdigest()}",
            },
            "requestContext": {
                "http": {"method": "POST", "path": "/channels/slack/interactions", "sourceIp": "192.0.2.1"},
                "requestId": f"bench-{uuid.uuid4().hex[:8]}",
                "routeKey": route,
                "stage": "$default",
            },
            "body": body,
            "isBase64Encoded": False,
        }

    def queued_event(self) -> dict[str, Any]:
        """The click the acknowledgement queued, as Lambda's poller hands it to the decider."""
        (message,) = self.sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=1,
            MessageSystemAttributeNames=["All"],
            WaitTimeSeconds=5,
        )["Messages"]
        self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
        record = {
            "messageId": message["MessageId"],
            "receiptHandle": message["ReceiptHandle"],
            "body": message["Body"],
            "attributes": message["Attributes"],
            "messageAttributes": {},
            "md5OfBody": message["MD5OfBody"],
            "eventSource": "aws:sqs",
            "eventSourceARN": self.queue_arn,
            "awsRegion": str(self.stack.description["region"]),
        }
        return {"Records": [record]}

    def status(self, run_id: str) -> str:
        item = self.stack.client("dynamodb").get_item(
            TableName=self.stack.table_name,
            Key={"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "NODE#Interrupt"}},
            ConsistentRead=True,
        )["Item"]
        return str(item["status"]["S"])


def _environment(stack: BenchStack, logical_id: str, **more: str) -> dict[str, str]:
    return {
        **stack.function_environment(logical_id),
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": f"{REPO_ROOT}:{REPO_ROOT / 'layers/waitgate'}",
        "AWS_ENDPOINT_URL": stack.aws_endpoint_url,
        "AWS_DEFAULT_REGION": str(stack.description["region"]),
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
        **more,
    }


def _fresh(function: str, event: dict[str, Any], environment: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(REPO_ROOT / "functions" / function / "app.py")],
        input=json.dumps(event), env=environment, capture_output=True, text=True, cwd=REPO_ROOT,
        timeout=120, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{function}: the probe failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(stack: BenchStack, deadline: Deadline) -> tuple[dict[str, list[float]], str]:
    """The samples, and why they stopped short of CLICKS ("" when they did not): past its bound the
    bench keeps what it measured."""
    clicks = Clicks(stack, deadline)
    acking = _environment(stack, "SlackInteractionsFunction", SLACK_CLICKS_QUEUE_URL=clicks.queue_url)
    deciding = _environment(stack, "DecideSlackClicksFunction")
    names = ("ack import", "ack", "ack cpu", "decide import", "decide")
    samples: dict[str, list[float]] = {name: [] for name in names}
    for number, (run_id, message, member) in enumerate(clicks.posted(CLICKS)):
        try:
            deadline.check()
        except StackFailedError as stopped:
            return samples, f"{stopped}: {number} of {CLICKS} clicks measured"
        acked = _fresh("slack_interactions", clicks.http_event(message, member), acking)
        if (acked["answer"]["statusCode"], acked["answer"]["body"]) != (200, ""):
            raise RuntimeError(f"the click was answered {acked['answer']}")
        samples["ack import"].append(acked["import_ms"])
        samples["ack"].append(acked["first_ms"])
        samples["ack cpu"].append(acked["first_cpu_ms"])
        queued = clicks.queued_event()  # taken off the queue whether decided here or not
        if number >= RUNS:
            continue
        decided = _fresh("decide_slack_clicks", queued, deciding)
        if decided["answer"] != {"batchItemFailures": []} or clicks.status(run_id) != "resolved":
            raise RuntimeError(f"the click was not decided: {decided['answer']}, {clicks.status(run_id)}")
        samples["decide import"].append(decided["import_ms"])
        samples["decide"].append(decided["first_ms"])
    return samples, ""


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def run() -> list[Row]:
    bound = bound_seconds(LIMIT_SECONDS)  # no click starts past it: the rows are those measured
    deadline = Deadline(
        bound - STOP_RESERVE_SECONDS, f"slack ack ({CLICKS} clicks acknowledged, {RUNS} decided, cold)"
    )
    with BenchStack() as stack:
        samples, stopped = measure(stack, deadline)
    if len(samples["ack"]) < 2 or not samples["decide"]:
        return [Row(GROUP, "cold clicks: not measured", len(samples["ack"]), "clicks", note=stopped)]
    median = {name: statistics.median(values) for name, values in samples.items()}
    ack, decide, cold = median["ack"], median["decide"], p99(samples["ack"])
    acked, decided = len(samples["ack"]), len(samples["decide"])
    cold_note = (f"{stopped + '; ' if stopped else ''}a fresh process per click, wall time; slowest "
                 f"{max(samples['ack']):.0f} ms; CPU time: median {median['ack cpu']:.0f} ms, "
                 f"p99 {p99(samples['ack cpu']):.0f} ms")  # fmt: skip
    note = "fresh process: import + first event, against the local stack's moto"
    return [
        Row(GROUP, f"ack: import slack_interactions (median of {acked})", median["ack import"], "ms"),
        Row(GROUP, f"ack: import + answer a signed click (median of {acked})", ack, "ms",
            f"< {SLACK_LIMIT_MS} ms", ack < SLACK_LIMIT_MS, note),
        Row(GROUP, f"ack: click on a cold start, p99 of {acked}", cold, "ms", f"≤ {COLD_CLICK_TARGET_MS} ms",
            cold <= COLD_CLICK_TARGET_MS, cold_note),
        Row(GROUP, f"decide: import decide_slack_clicks (median of {decided})", median["decide import"],
            "ms"),
        Row(GROUP, f"decide: import + decide the click (median of {decided})", decide, "ms",
            note="what the old path paid before it answered Slack (less its signature check)"),
        Row(GROUP, "ack ÷ old path (decide)", ack / decide, "×", note="what is left of the old cold answer"),
    ]  # fmt: skip


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
