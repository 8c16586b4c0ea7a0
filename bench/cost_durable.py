"""What the durable engine adds to a decision, read from the durable executions themselves: a few
approvals of the stack's own durable sample (`functions/approval_sample`) decided on a local stack this
bench starts, each execution's history read back (`GetDurableExecutionHistory` with its data, from the
Durable Execution testing SDK's runner, which keeps what Lambda keeps):

- its **invocations** (`InvocationCompleted`: one until the function suspends on the callback, one more
  when the answer resumes it) and their durations, billed at the function's memory and architecture;
- its **durable operations** (each distinct operation id of the history: the execution, the
  `wait_for_callback`'s child context, its callback and its submitter step);
- the **bytes it checkpoints** (every payload its events carry: the input, the submitter's result, the
  callback's answer, the output), billed as data written and as data retained for the template's
  `RetentionPeriodInDays`.

What waitgate's own handlers do for a durable run is the same as for a Step Functions run (the same
request, resolve, outbox and lifecycle handlers, a callback id in place of a task token), so bench/cost.py
prices those from its in-process run, without the state machine's transitions.
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bench.durable_roundtrip import ACCEPT
from bench.local_stack import BenchStack, Deadline
from bench.samples import APPROVAL

RUNS = 5
LIMIT_SECONDS = 300
PAYLOAD_DETAILS = ("Input", "Result", "Error")


@dataclass
class DurableFigures:
    """Per decided durable approval: what the durable function itself is billed for."""

    invocations: float = 0.0
    durations_ms: list[float] = field(default_factory=list)  # every invocation of every run
    operations: float = 0.0
    bytes_written: float = 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.durations_ms)


def history_figures(events: list[dict[str, Any]]) -> tuple[int, list[float], int, int]:
    """One execution's invocations, their durations (ms) where the history has them (Lambda's does, the
    local runner's does not), its operations, and the bytes of its payloads."""
    invocations = [event for event in events if event["EventType"] == "InvocationCompleted"]
    durations = []
    for event in invocations:
        completed = event.get("InvocationCompletedDetails")
        if completed:
            start, end = (_instant(completed[name]) for name in ("StartTimestamp", "EndTimestamp"))
            durations.append((end - start).total_seconds() * 1000)
    operations = {
        event["Id"] for event in events if event.get("Id") and event["EventType"] != "InvocationCompleted"
    }
    written = 0
    for event in events:
        for name, details in event.items():
            if name.endswith("Details") and isinstance(details, dict):
                for part in PAYLOAD_DETAILS:
                    payload = (details.get(part) or {}).get("Payload")
                    written += len(payload.encode()) if isinstance(payload, str) else 0
    return len(invocations), durations, len(operations), written


def _instant(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _history(lambdas: Any, arn: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    arguments: dict[str, Any] = {"DurableExecutionArn": arn, "IncludeExecutionData": True}
    while True:
        page = lambdas.get_durable_execution_history(**arguments)
        events += page.get("Events", [])
        if not page.get("NextMarker"):
            return events
        arguments["Marker"] = page["NextMarker"]


def _decided_after_suspending(stack: BenchStack, lambdas: Any, token: str, deadline: Deadline) -> str:
    """One durable approval, decided once its function has suspended on the callback (as a person's
    decision comes: minutes later), to its end; its execution's ARN."""
    run_id = f"bench-cost-{uuid.uuid4().hex[:8]}"
    interrupt = {**APPROVAL, "key": run_id, "data": {**APPROVAL["data"], "approversList": ["alice"]}}
    arn: str = lambdas.invoke(
        FunctionName=f"{stack.description['durable']['functions']['approval']}:live",
        InvocationType="Event",
        DurableExecutionName=run_id,
        Payload=json.dumps({"interrupt": interrupt}),
    )["DurableExecutionArn"]
    _until(lambda: any(e["EventType"] == "InvocationCompleted" for e in _history(lambdas, arn)), deadline)
    answer = stack.request("POST", f"/runs/{run_id}/interrupts/{run_id}", {"resumeValue": ACCEPT}, token)
    assert answer.status == 200, answer
    _until(lambda: lambdas.get_durable_execution(DurableExecutionArn=arn)["Status"] != "RUNNING", deadline)
    return arn


def _until(done: Callable[[], bool], deadline: Deadline) -> None:
    while not done():
        deadline.check()
        time.sleep(0.05)


def measure_durable(runs: int = RUNS) -> DurableFigures:
    deadline = Deadline(LIMIT_SECONDS, "cost: durable executions")
    figures = DurableFigures()
    with BenchStack() as stack:
        lambdas = stack.durable_lambdas()
        token = stack.jwt("alice", "approvals:respond")
        for _ in range(runs):
            arn = _decided_after_suspending(stack, lambdas, token, deadline)
            invocations, durations, operations, written = history_figures(_history(lambdas, arn))
            figures.durations_ms += durations
            figures.invocations += invocations / runs
            figures.operations += operations / runs
            figures.bytes_written += written / runs
    return figures
