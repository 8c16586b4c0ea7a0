"""Cold start with the first request: the median over 10 fresh Python processes of importing a
function's handler, and of import + its first real request, against a local stack this bench starts.

Each process gets the environment the stack gave its functions (read back from its Lambda
configuration), AWS_ENDPOINT_URL at the stack's moto, and one real request: resolve_by_run resolves
a suspended interrupt, inspect_by_token inspects a freshly minted link, request_interrupt gets a
malformed interrupt with a real task token (its first request validates and fails the task)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

from bench.local_stack import BenchStack, Deadline
from bench.report import Row
from bench.samples import ACCEPT, APPROVAL
from bench.task_tokens import TaskTokens
from local.stack_process import REPO_ROOT

GROUP = "first request"
RUNS = 10
LIMIT_SECONDS = 600
EVENTS = REPO_ROOT / "events"
EXPECTED = {"resolve_by_run": 200, "inspect_by_token": 200, "request_interrupt": "rejected"}

PROBE = r"""
import importlib.util, json, sys, time
event = json.loads(sys.stdin.read())

class Context:
    function_name = "bench"
    function_version = "$LATEST"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:bench"
    aws_request_id = "bench-request"
    log_group_name = log_stream_name = "bench"
    def get_remaining_time_in_millis(self): return 30000

started = time.perf_counter()
spec = importlib.util.spec_from_file_location("handler_under_test", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
imported = time.perf_counter()
answer = module.lambda_handler(event, Context())
answered = time.perf_counter()
outcome = answer.get("statusCode", answer.get("status"))
print(json.dumps({"import_ms": (imported - started) * 1000, "first_ms": (answered - started) * 1000,
                  "outcome": outcome}))
"""


def _sample(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"{name}.json").read_text(encoding="utf-8"))
    return event


def _http_event(name: str, path: str, parameters: dict[str, str], body: Any = None, **claims: str) -> Any:
    """The repository's sample API Gateway event for `name`, re-addressed (and re-bodied, re-claimed)."""
    event = _sample(name)
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["pathParameters"] = parameters
    if body is not None:
        event["body"] = json.dumps(body)
    if claims:
        event["requestContext"]["authorizer"]["jwt"]["claims"].update(claims)
    return event


class Events:
    """One fresh first request per process, each on real state in the stack."""

    def __init__(self, stack: BenchStack, deadline: Deadline) -> None:
        self.stack = stack
        self.deadline = deadline
        self.reader = stack.jwt("bench-reader", "runs:read")
        self.minter = stack.jwt("bench-minter", "interrupts:mint")
        self.tokens = TaskTokens(stack.client("stepfunctions"), stack.client("sqs"))
        self.minted_for = self.suspended()

    def suspended(self) -> str:
        run_id = f"first-{uuid.uuid4().hex[:12]}"
        self.stack.client("stepfunctions").start_execution(
            stateMachineArn=self.stack.state_machine("interrupt"),
            name=run_id,
            input=json.dumps({"interrupt": APPROVAL}),
        )
        while True:
            self.deadline.check()
            answer = self.stack.request("GET", f"/runs/{run_id}", token=self.reader)
            if answer.status == 200 and answer.json()["status"] == "waiting-approval":
                return run_id
            time.sleep(0.1)

    def resolve_by_run(self) -> Any:
        run_id = self.suspended()
        path = f"/runs/{run_id}/interrupts/Interrupt"
        parameters = {"runId": run_id, "nodeId": "Interrupt"}
        body = {"resumeValue": ACCEPT}
        return _http_event("resolve_by_run", path, parameters, body, sub="alice", scope="approvals:respond")

    def inspect_by_token(self) -> Any:
        path = f"/runs/{self.minted_for}/interrupts/Interrupt/tokens"
        minted = self.stack.request("POST", path, {"intent": "resolve"}, token=self.minter)
        if minted.status not in (200, 201):
            raise RuntimeError(f"minting a link answered {minted.status}: {minted.body[:300]!r}")
        token = minted.json()["token"]
        return _http_event("inspect_by_token", f"/interrupts/{token}", {"token": token})

    def request_interrupt(self) -> Any:
        return self.tokens.task_event({"kind": "approval", "key": "bad", "data": {"title": 42}})


def _environment(stack: BenchStack) -> dict[str, str]:
    return {
        **stack.function_environment(),
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": f"{REPO_ROOT}:{REPO_ROOT / 'layers/waitgate'}",
        "AWS_ENDPOINT_URL": stack.aws_endpoint_url,
        "AWS_DEFAULT_REGION": str(stack.description["region"]),
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
    }


def measure(name: str, make_event: Callable[[], Any], environment: dict[str, str]) -> tuple[float, float]:
    imports, firsts = [], []
    for _ in range(RUNS):
        event = make_event()
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(REPO_ROOT / "functions" / name / "app.py")],
            input=json.dumps(event), env=environment, capture_output=True, text=True, cwd=REPO_ROOT,
            timeout=120, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"{name}: the probe failed:\n{done.stderr[-2000:]}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        if result["outcome"] != EXPECTED[name]:
            raise RuntimeError(f"{name}: first request answered {result['outcome']}, not {EXPECTED[name]}")
        imports.append(result["import_ms"])
        firsts.append(result["first_ms"])
    return statistics.median(imports), statistics.median(firsts)


def run() -> list[Row]:
    deadline = Deadline(LIMIT_SECONDS, f"first request ({RUNS} processes per function)")
    rows = []
    with BenchStack() as stack:
        events = Events(stack, deadline)
        environment = _environment(stack)
        for name in EXPECTED:
            imported, first = measure(name, getattr(events, name), environment)
            rows.append(Row(GROUP, f"{name}: import (median of {RUNS})", imported, "ms"))
            rows.append(Row(GROUP, f"{name}: import + first request (median of {RUNS})", first, "ms",
                            note="fresh process, real request against the local stack's moto"))  # fmt: skip
    return rows


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
