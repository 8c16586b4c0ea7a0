"""The chaos soak's kinds of run (bench/chaos_soak.py): how each starts, what its people (or its
webhook, or its operator) do, and how it must end by the invariant (docs/durability.md).

Every kind starts a run named by its id, waits until it is suspended, acts, and hands back what it
expects: the engine's end (`SUCCEEDED` with an output, `FAILED` with a named error, `ABORTED` with its
interrupt cancelled) and the run's resolve path's answers. An answer that timed out, or was 5xx, is
sent again with its Idempotency-Key (a 500 is a resolver killed after its commit: its answer stands).
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import boto3

from bench.fault_stack import moment
from bench.local_stack import BenchStack
from tests.support.webhook_senders import signed_delivery

ACCEPT = {"action": "accept", "decidedAt": "2026-12-03T10:00:00Z"}
ANSWERS = {"answers": {"region": "eu-west-1", "replicas": 3, "notes": "soak"}}
DEADLINE_MS = 2000
RACE_ESCALATION = {
    "steps": [{"afterMs": 1000, "remind": True}],
    "onDeadline": {"resolveWith": {"action": "reject", "feedback": "No decision in time."}},
}
COMMITTED = (200, 500)  # 500: the resolver was killed after its commit (kill_after_commit)
RETRIED = (0, 500, 502, 503, 504)
SUSPEND_SECONDS = 120.0


@dataclass
class Expected:
    """How the run must end: the engine's status, and what its end (`output`, `error`) must say."""

    status: str
    check: Callable[[dict[str, Any]], bool] = lambda _: True
    votes: list[int] = field(default_factory=list)  # the resolve path's final answers
    cancelled: bool = False  # ABORTED: its interrupt must be cancelled too
    arn: str = ""  # its execution (or durable execution)


class Soaker:
    """The stack's clients and people, shared by every run of the soak (thread-safe clients)."""

    def __init__(self, stack: BenchStack) -> None:
        self.stack = stack
        self.sfn = stack.client("stepfunctions")
        self.dynamodb = stack.client("dynamodb")
        durable = stack.description["durable"]
        self.durable = boto3.client(
            "lambda",
            endpoint_url=durable["endpointUrl"],
            region_name=str(stack.description["region"]),
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )
        self.durable_function = f"{durable['functions']['approval']}:live"
        self.dice = random.Random()

    @property
    def reader(self) -> str:
        """A fresh JWT for each read: the local issuer's expire in an hour, and a soak runs longer."""
        return self.stack.jwt("soak-reader", "runs:read")

    def token(self, sub: str) -> str:
        return self.stack.jwt(sub, "approvals:respond")

    def start(self, machine: str, run_id: str, document: dict[str, Any]) -> str:
        arn: str = self.sfn.start_execution(
            stateMachineArn=self.stack.state_machine(machine), name=run_id, input=json.dumps(document)
        )["executionArn"]
        return arn

    def suspended(self, run_id: str) -> float | None:
        """When the run's interrupt was requested (epoch seconds), once it waits (or waited: a deadline
        may have ended it before this looked); None: it never did."""
        ends = time.monotonic() + SUSPEND_SECONDS
        key = {"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "RUN"}}
        while time.monotonic() < ends:
            item = self.dynamodb.get_item(TableName=self.stack.table_name, Key=key).get("Item") or {}
            if item.get("status", {}).get("S", "running") != "running":  # waiting, or already past it
                events = self.stack.request("GET", f"/runs/{run_id}/events?limit=1", token=self.reader)
                found = events.json().get("events", []) if events.status == 200 else []
                return moment(found[0]["time"]) if found else time.time()
            time.sleep(0.2)
        return None

    def answer(self, sub: str, run_id: str, node_id: str, value: Any) -> int:
        """POST the resolve as `sub`, again with the same Idempotency-Key while it is unknown or 5xx."""
        key, status = f"soak-{sub}-{uuid.uuid4().hex[:10]}", 0
        for _ in range(6):
            try:
                status = self._post(sub, run_id, node_id, value, key)
            except OSError:
                status = 0
            if status not in RETRIED:
                return status
            time.sleep(0.5)
        return status

    def _post(self, sub: str, run_id: str, node_id: str, value: Any, key: str) -> int:
        import urllib.error
        import urllib.request

        body = json.dumps({"resumeValue": value}).encode()
        headers = {
            "Authorization": f"Bearer {self.token(sub)}",
            "Content-Type": "application/json",
            "Idempotency-Key": key,
        }
        url = f"{self.stack.api_url}/runs/{run_id}/interrupts/{node_id}"
        request = urllib.request.Request(url, data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as answered:
                return int(answered.status)
        except urllib.error.HTTPError as error:
            return int(error.code)

    def webhook(self, event: dict[str, Any]) -> int:
        """The provider's delivery, sent again (the same delivery id) while the answer is not 2xx."""
        import urllib.error
        import urllib.request

        entry = self.stack.description["webhooks"]["demo-standard"]
        delivery, status = f"msg_{uuid.uuid4().hex}", 0
        for _ in range(6):
            raw, headers = signed_delivery(entry, event, delivery_id=delivery)
            request = urllib.request.Request(entry["url"], data=raw, method="POST", headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=60) as answered:
                    return int(answered.status)
            except urllib.error.HTTPError as error:
                status = int(error.code)
            except OSError:
                status = 0
            time.sleep(0.5)
        return status


def approval(key: str, timeout_ms: int | None = None, **data: Any) -> dict[str, Any]:
    body = {
        "artifactId": key,
        "artifactType": "release",
        "title": f"Ship {key}?",
        "actions": ["accept", "reject"],
        "approversList": ["alice"],
        **data,
    }
    interrupt: dict[str, Any] = {"kind": "approval", "key": "ship", "data": body}
    if timeout_ms is not None:
        interrupt["timeoutMs"] = timeout_ms
    return interrupt


def _accepted_by(who: str) -> Callable[[dict[str, Any]], bool]:
    return lambda end: _output(end).get("action") == "accept" and _output(end).get("decidedBy") == who


def _output(end: dict[str, Any]) -> dict[str, Any]:
    output = end.get("output")
    return output if isinstance(output, dict) else {}


def approve(soak: Soaker, run_id: str) -> Expected:
    arn = soak.start("interrupt", run_id, {"interrupt": approval(run_id)})
    if soak.suspended(run_id) is None:
        return Expected("SUCCEEDED", arn=arn)
    vote = soak.answer("alice", run_id, "Interrupt", ACCEPT)
    return Expected("SUCCEEDED", _accepted_by("alice"), [vote], arn=arn)


def quorum(soak: Soaker, run_id: str) -> Expected:
    interrupt = approval(run_id, requiredApprovals=2, approversList=["ann", "ben", "cy"])
    arn = soak.start("interrupt", run_id, {"interrupt": interrupt})
    if soak.suspended(run_id) is None:
        return Expected("SUCCEEDED", arn=arn)
    votes = [soak.answer(sub, run_id, "Interrupt", ACCEPT) for sub in ("ann", "ben")]
    return Expected("SUCCEEDED", lambda end: _output(end).get("action") == "accept", votes, arn=arn)


def clarify(soak: Soaker, run_id: str) -> Expected:
    arn = soak.start("clarification", run_id, {})
    if soak.suspended(run_id) is None:
        return Expected("SUCCEEDED", arn=arn)
    vote = soak.answer("alice", run_id, "AskDeployment", ANSWERS)
    return Expected("SUCCEEDED", lambda end: end.get("output") == ANSWERS, [vote], arn=arn)


def external_event(soak: Soaker, run_id: str) -> Expected:
    data = {"eventType": "payment.settled", "correlation": {"orderId": run_id}}
    interrupt = {"kind": "external-event", "key": "pay", "data": data}
    arn = soak.start("interrupt", run_id, {"interrupt": interrupt})
    if soak.suspended(run_id) is None:
        return Expected("SUCCEEDED", arn=arn)
    event = {"type": "payment.settled", "data": {"orderId": run_id, "amount": 1999}}
    status = soak.webhook(event)
    return Expected("SUCCEEDED", lambda end: end.get("output") == event, [status], arn=arn)


def durable(soak: Soaker, run_id: str) -> Expected:
    interrupt = approval(run_id)
    interrupt["key"] = run_id  # the sample durable function's node is its interrupt's key
    arn = soak.durable.invoke(
        FunctionName=soak.durable_function,
        InvocationType="Event",
        DurableExecutionName=run_id,
        Payload=json.dumps({"interrupt": interrupt}),
    )["DurableExecutionArn"]
    if soak.suspended(run_id) is None:
        return Expected("SUCCEEDED", arn=arn)
    vote = soak.answer("alice", run_id, run_id, ACCEPT)
    return Expected("SUCCEEDED", _accepted_by("alice"), [vote], arn=arn)


def race(soak: Soaker, run_id: str) -> Expected:
    """Alice presses at a random moment from 1.0 to 2.6 s after the request: before, on or after its
    2 s deadline, which decides `reject` for her if she is late."""
    document = {"interrupt": approval(run_id, DEADLINE_MS), "escalation": RACE_ESCALATION}
    arn = soak.start("interrupt", run_id, document)
    requested = soak.suspended(run_id)
    if requested is None:
        return Expected("SUCCEEDED", arn=arn)
    time.sleep(max(0.0, requested + soak.dice.uniform(1.0, 2.6) - time.time()))
    vote = soak.answer("alice", run_id, "Interrupt", ACCEPT)
    winner = "alice" if vote in COMMITTED else "waitgate:deadline"
    return Expected("SUCCEEDED", lambda end: _output(end).get("decidedBy") == winner, [vote], arn=arn)


def deadline(soak: Soaker, run_id: str) -> Expected:
    arn = soak.start("interrupt", run_id, {"interrupt": approval(run_id, DEADLINE_MS)})
    soak.suspended(run_id)
    return Expected("FAILED", lambda end: end.get("error") == "InterruptTimedOut", arn=arn)


def cancel(soak: Soaker, run_id: str) -> Expected:
    arn = soak.start("interrupt", run_id, {"interrupt": approval(run_id)})
    if soak.suspended(run_id) is not None:
        soak.sfn.stop_execution(executionArn=arn, error="Cancelled", cause="the chaos soak")
    return Expected("ABORTED", cancelled=True, arn=arn)


KINDS: dict[str, Callable[[Soaker, str], Expected]] = {
    "approval": approve,
    "quorum approval": quorum,
    "clarification": clarify,
    "external event (webhook)": external_event,
    "durable run": durable,
    "approver racing the deadline": race,
    "deadline-decided": deadline,
    "cancelled": cancel,
}
DURABLE_KINDS = frozenset({"durable run"})
