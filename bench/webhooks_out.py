"""Webhooks out on a local stack this bench starts (docs/webhooks-out.md): a subscriber on 127.0.0.1
(tests/support/webhook_receiver), verified with the standardwebhooks library. How long from a resolve's
200 to the receiver holding its `interrupt.resolved` (the stream's reader, the queue, the deliverer),
over 10 runs one after the other; and a receiver that answers 503 to its first two attempts: how many
POSTs until it took it, and how long after it was back (the local stack's backoff: 1 s, 2 s, ...)."""

from __future__ import annotations

import json
import statistics
import time
import uuid

from bench.local_stack import BenchStack, Deadline
from bench.report import Row
from tests.support.webhook_receiver import Received, WebhookReceiver

GROUP = "Webhooks out"
RUNS = 10
LIMIT_SECONDS = 300
ASK = {"kind": "custom", "key": "label", "data": {"customKind": "acme.label"}}


def _suspended(stack: BenchStack, deadline: Deadline, token: str) -> str:
    run_id = f"hooks-{uuid.uuid4().hex[:12]}"
    stack.client("stepfunctions").start_execution(
        stateMachineArn=stack.state_machine(), name=run_id, input=json.dumps({"interrupt": ASK})
    )
    while "pendingInterrupt" not in (stack.request("GET", f"/runs/{run_id}", token=token).json() or {}):
        deadline.check()
        time.sleep(0.05)
    return run_id


def _arrived(receiver: WebhookReceiver, run_id: str, deadline: Deadline, secret: str) -> Received:
    while True:
        for received in receiver.accepted_of_run(run_id):
            if received.verified(secret)["type"] == "interrupt.resolved":
                return received
        deadline.check()
        time.sleep(0.005)


def run() -> list[Row]:
    deadline = Deadline(LIMIT_SECONDS, "webhooks out")
    receiver = WebhookReceiver()
    try:
        with BenchStack() as stack:
            manage = stack.jwt("ops", "subscriptions:manage")
            body = {"url": receiver.url, "events": ["interrupt.resolved"]}
            secret = stack.request("POST", "/subscriptions", body, manage).json()["secret"]
            alice = stack.jwt("alice", "approvals:respond runs:read")
            delays = []
            for _ in range(RUNS):
                run_id = _suspended(stack, deadline, alice)
                path = f"/runs/{run_id}/interrupts/Interrupt"
                assert stack.request("POST", path, {"resumeValue": {"label": "ok"}}, alice).status == 200
                resolved = time.monotonic()
                delays.append((_arrived(receiver, run_id, deadline, secret).at - resolved) * 1000)
            receiver.answer = 503
            run_id = _suspended(stack, deadline, alice)
            path = f"/runs/{run_id}/interrupts/Interrupt"
            assert stack.request("POST", path, {"resumeValue": {"label": "ok"}}, alice).status == 200
            while len(receiver.of_run(run_id)) < 2:
                deadline.check()
                time.sleep(0.005)
            receiver.answer, back = 204, time.monotonic()
            taken = _arrived(receiver, run_id, deadline, secret)
            posts = len(receiver.of_run(run_id))
    finally:
        receiver.stop()
    note = f"{RUNS} runs one after the other; the stream's 1 s batching window is in it"
    return [
        Row(
            GROUP,
            "resolve to the subscriber holding interrupt.resolved, median",
            statistics.median(delays),
            "ms",
            note=note,
        ),
        Row(GROUP, "the same, max", max(delays), "ms", note=note),
        Row(GROUP, "receiver 503 twice: POSTs until taken", posts, "count", note="WebhookAttempts 4 locally"),
        Row(
            GROUP,
            "receiver back to delivery",
            (taken.at - back) * 1000,
            "ms",
            note="the 2 s backoff then due",
        ),
    ]
