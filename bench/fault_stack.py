"""What the fault benches (races, chaos_soak) share: a local stack with faults and a reconciler period
of their own, CPU-bound neighbours as load, and what a run's records say about how it ended.

A run "ended" when its execution is no longer RUNNING; it "hung" when it had not within the bound a
bench gives it. What healed it is read from its own debug events (`interrupt.delivered` `via`,
`interrupt.reconciled` `heal`), and the faults that struck from the stack's `faults.jsonl`.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bench.local_stack import BenchStack
from local.patches.fault_log import FaultLog

BUSY_LOOP = "while True: pass"


@contextmanager
def cpu_load(processes: int) -> Iterator[None]:
    """`processes` CPU-bound Python processes beside the stack until the block ends (each stopped by
    its own pid)."""
    started = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(processes)]
    try:
        yield
    finally:
        for process in started:
            process.kill()
            process.wait()


def faulty_stack(faults: str, reconcile_seconds: float) -> BenchStack:
    return BenchStack({"WAITGATE_FAULTS": faults, "WAITGATE_RECONCILE_SECONDS": f"{reconcile_seconds:g}"})


def moment(stamp: str) -> float:
    """An event's `time` (RFC 3339, UTC) as epoch seconds."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


@dataclass
class RunRecord:
    """What one run's records say: its execution's end, and its debug events."""

    run_id: str
    execution: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ended(self) -> bool:
        return bool(self.execution) and self.execution.get("status") != "RUNNING"

    def of_type(self, event_type: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event["type"] == event_type]

    def count(self, event_type: str) -> int:
        return len(self.of_type(event_type))

    def heals(self) -> list[tuple[str, float]]:
        """(heal, when) for each of the reconciler's heals."""
        return [(str(e["payload"]["heal"]), moment(e["time"])) for e in self.of_type("interrupt.reconciled")]

    def deliveries(self) -> list[tuple[str, float]]:
        """(via, when) for each recorded delivery."""
        return [(str(e["payload"]["via"]), moment(e["time"])) for e in self.of_type("interrupt.delivered")]

    def first(self, event_type: str) -> float | None:
        found = self.of_type(event_type)
        return moment(found[0]["time"]) if found else None


def events_of(stack: BenchStack, token: str, run_id: str) -> list[dict[str, Any]]:
    """Every event of the run, debug mode (pages of 100)."""
    found: list[dict[str, Any]] = []
    after = 0
    while True:
        answer = stack.request(
            "GET", f"/runs/{run_id}/events?mode=debug&limit=100&after={after}", token=token
        )
        if answer.status != 200:
            return found
        page = answer.json()
        found += page["events"]
        if "next" not in page:
            return found
        after = page["next"]


def wait_until_ended(sfn: Any, execution_arn: str, bound_seconds: float) -> dict[str, Any]:
    """The execution once it ended, or as it is when the bound passed (still RUNNING: hung)."""
    ends = time.monotonic() + bound_seconds
    while True:
        execution: dict[str, Any] = sfn.describe_execution(executionArn=execution_arn)
        if execution["status"] != "RUNNING" or time.monotonic() > ends:
            return execution
        time.sleep(0.25)


def output_of(execution: dict[str, Any]) -> Any:
    return json.loads(execution["output"]) if execution.get("output") else None


def struck(stack: BenchStack) -> list[dict[str, Any]]:
    """The faults that struck so far (the stack's faults.jsonl)."""
    return FaultLog.in_state_dir(stack.state_dir).entries()


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
