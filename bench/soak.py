"""Soak: 500 interrupts on a local stack whose SendTaskSuccess calls fail 20% of the time (injected
throttling, local/patches/faults.py) → every execution SUCCEEDED with its own value, delivered inline or by
the outbox (docs/durability.md). Bounded: gives up after SOAK_LIMIT_SECONDS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import boto3

from bench.report import Row, bound_seconds
from bench.throughput import forget
from local.stack_process import REPO_ROOT, stack_environment, started_stack

INTERRUPTS = int(os.environ.get("SOAK_INTERRUPTS") or 500)
FAULTS = "send_task_success:0.2"
SOAK_LIMIT_SECONDS = 1200  # when run alone; `make bench` gives it its bound (bench/plan.py)
STOP_RESERVE_SECONDS = 30  # of the bound: the stack's stop, and a wave slower than the last
WAVE = 50


class Stack:
    """`python -m local dev` with the faults switched on, in a state directory of its own
    (`local.stack_process`, the one starter)."""

    def __init__(self) -> None:
        self.state = Path(tempfile.mkdtemp(prefix="waitgate-soak-"))
        self.env = {**stack_environment(self.state), "WAITGATE_FAULTS": FAULTS}
        self._running = ExitStack()
        started = self._running.enter_context(started_stack(self.state, self.env))
        self.description: dict[str, Any] = started.description

    def client(self, service: str) -> Any:
        return boto3.client(
            service,
            endpoint_url=self.description["awsEndpointUrl"],
            region_name=self.description["region"],
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

    def jwt(self) -> str:
        arguments = ["dev-jwt", "--sub", "soak", "--scope", "approvals:respond runs:read"]
        answer = subprocess.run(
            [sys.executable, "-m", "local", *arguments],
            cwd=REPO_ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        return answer.stdout.strip()

    def stop(self) -> None:
        self._running.close()


def _resolve(stack: Stack, token: str, run_id: str, value: dict[str, Any], deadline: float) -> int:
    """POST the run's resolve once its interrupt is there (404 until the Task has asked). A timed-out
    POST is sent again with the same Idempotency-Key, so a retry replays the first answer."""
    body = json.dumps({"resumeValue": value}).encode()
    url = f"{stack.description['apiUrl']}/runs/{run_id}/interrupts/Interrupt"
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Idempotency-Key": f"soak-{run_id}",
    }
    while time.monotonic() < deadline:
        request = urllib.request.Request(url, data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as error:
            if error.code not in (404, 409) or "in_flight" in error.read().decode(errors="replace"):
                return int(error.code)
        except (TimeoutError, urllib.error.URLError):
            pass  # the stack is busy: the same key again
        time.sleep(0.2)
    return 0


def _soak(stack: Stack, limit: float) -> tuple[int, int, int, int, int, float]:
    """Waves of WAVE interrupts: start, resolve (8 at a time), wait for every execution of the wave to
    end, count, then forget the wave's items as a TTL would — moto copies the whole table on every
    transaction, so an ever-growing table would make the soak measure moto, not waitgate. No wave
    starts that would not end within `limit` at the pace of the last; how many interrupts it took."""
    sfn, dynamodb = stack.client("stepfunctions"), stack.client("dynamodb")
    table = stack.description["tableNames"]["InterruptsTable"]
    machine = stack.description["stateMachines"]["interrupt"]
    token = stack.jwt()
    started = time.monotonic()
    deadline = started + limit
    runs = {f"soak-{uuid.uuid4().hex[:12]}": {"n": n} for n in range(INTERRUPTS)}
    interrupt = {"kind": "custom", "key": "soak", "data": {"customKind": "bench.soak"}}
    resolved = succeeded = right = by_outbox = taken = 0
    names = list(runs)
    wave_seconds = 0.0
    with ThreadPoolExecutor(max_workers=8) as pool:
        for start in range(0, len(names), WAVE):
            began = time.monotonic()
            if began + 1.25 * wave_seconds > deadline - STOP_RESERVE_SECONDS:
                break
            wave = names[start : start + WAVE]
            taken += len(wave)
            arns = {
                run_id: sfn.start_execution(
                    stateMachineArn=machine, name=run_id, input=json.dumps({"interrupt": interrupt})
                )["executionArn"]
                for run_id in wave
            }
            statuses = pool.map(lambda r: _resolve(stack, token, r, runs[r], deadline), wave)
            resolved += sum(1 for status in statuses if status == 200)
            for run_id, arn in arns.items():
                execution = _ended(sfn, arn, deadline)
                ok = execution is not None and execution["status"] == "SUCCEEDED"
                succeeded += ok
                right += ok and json.loads(execution["output"]) == runs[run_id]  # type: ignore[index]
            by_outbox += _outbox_deliveries(dynamodb, table, wave)
            forget(dynamodb, table, wave)
            wave_seconds = time.monotonic() - began
    return resolved, succeeded, right, by_outbox, taken, time.monotonic() - started


def _ended(sfn: Any, arn: str, deadline: float) -> dict[str, Any] | None:
    """The execution once it is no longer RUNNING; None if the soak's time ran out first."""
    while time.monotonic() < deadline:
        execution: dict[str, Any] = sfn.describe_execution(executionArn=arn)
        if execution["status"] != "RUNNING":
            return execution
        time.sleep(0.2)
    return None


def _outbox_deliveries(dynamodb: Any, table: str, run_ids: list[str]) -> int:
    """How many of the wave's resolutions the outbox delivered (its `interrupt.delivered` events)."""
    delivered = 0
    for run_id in run_ids:
        items = dynamodb.query(
            TableName=table,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :evt)",
            FilterExpression="#t = :delivered",
            ExpressionAttributeNames={"#t": "type"},
            ExpressionAttributeValues={
                ":pk": {"S": f"RUN#default#{run_id}"},
                ":evt": {"S": "EVT#"},
                ":delivered": {"S": "interrupt.delivered"},
            },
        )["Items"]
        delivered += len(items)
    return delivered


def run() -> list[Row]:
    began, limit = time.monotonic(), bound_seconds(SOAK_LIMIT_SECONDS)
    stack = Stack()
    try:
        resolved, succeeded, right, by_outbox, taken, seconds = _soak(
            stack, limit - (time.monotonic() - began)
        )
    finally:
        stack.stop()
    note = f"{taken} interrupts, {FAULTS} injected, local stack"
    if taken < INTERRUPTS:
        note += f" (of {INTERRUPTS}: stopped by its bound, {limit:.0f} s)"
    return [
        Row(
            "soak",
            "resolves answered 200",
            resolved,
            "count",
            f"= {taken}",
            resolved == taken,
            note,
        ),
        Row("soak", "executions SUCCEEDED", succeeded, "count", f"= {taken}", succeeded == taken),
        Row("soak", "outputs = their resume value", right, "count", f"= {taken}", right == taken),
        Row("soak", "delivered by the outbox", by_outbox, "count", "", None, "inline send throttled"),
        Row(
            "soak",
            "wall time",
            round(seconds, 1),
            "s",
            f"< {limit:.0f}",
            seconds < limit,
        ),
    ]
