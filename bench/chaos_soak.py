"""The chaos soak (issue 28, item 5; `make soak`, and `make bench`'s module `chaos_soak`): SOAK_RUNS
runs (1,000) of mixed kinds (bench/chaos_kinds.py: approval, quorum approval, clarification, external
event by webhook, durable run, an approver racing the deadline, deadline-decided, cancelled), with
every hop's fault at a few percent (SOAK_FAULTS: a lost stream record, a lost schedule invocation, a
resolver killed after its commit, SendTaskSuccess throttled for 30 s every 5 minutes, InvalidOutput, a
lost notice, a lost end event) on a local stack whose reconciler passes every SOAK_RECONCILE_SECONDS
(5), SOAK_CONCURRENCY (8) runs at a time. An operator re-drives the parked deliveries every
15 s (`waitgate deliveries redrive --all`, bench/chaos_upkeep.py), as docs/durability.md tells one to.

It prints runs hung (not ended as the invariant says within SOAK_HUNG_SECONDS of their last act),
runs resumed twice (more than one recorded delivery), resolutions recorded twice, runs ended the wrong
way (kind by kind), the faults that struck, and the time from each fault to its heal: from the
fault's line in faults.jsonl to the first thing after it that settled its run's interrupt
(`interrupt.delivered`, `interrupt.reconciled`, `interrupt.expired`, `interrupt.cancelled`,
`run.status_changed`, or its execution's end). Each run's items are swept from the table 30 s after
it was read (as a TTL would), so the table stays small and the soak measures waitgate, not moto (whose
every Query reads the whole table).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench.chaos_kinds import DURABLE_KINDS, KINDS, Expected, Soaker
from bench.chaos_upkeep import Operator, Sweeper
from bench.fault_stack import RunRecord, events_of, faulty_stack, moment, percentile, struck
from bench.report import Row

RUNS = int(os.environ.get("SOAK_RUNS") or 1000)
CONCURRENCY = int(os.environ.get("SOAK_CONCURRENCY") or 8)
RECONCILE = float(os.environ.get("SOAK_RECONCILE_SECONDS") or 5)
HUNG_SECONDS = float(os.environ.get("SOAK_HUNG_SECONDS") or 180)
THROTTLE_WINDOWS = ",".join(f"send_task_success:1@{start}s-{start + 30}s" for start in range(120, 7200, 300))
FAULTS = os.environ.get(
    "SOAK_FAULTS",
    "stream_record:0.03,schedule:0.03,kill_after_commit:0.03,notice:0.03,end_event:0.03,"
    "send_task_success:0.01=InvalidOutput,lambda.send_durable_execution_callback_success:0.03,"
    + THROTTLE_WINDOWS,
)
SETTLING = frozenset(
    {
        "interrupt.delivered",
        "interrupt.reconciled",
        "interrupt.expired",
        "interrupt.cancelled",
        "run.status_changed",
    }
)
GROUP = "chaos soak"


@dataclass
class Lived:
    """One run of the soak as it ended: its kind, what was expected, what its records say."""

    kind: str
    record: RunRecord
    expected: Expected
    end: dict[str, Any] = field(default_factory=dict)  # status, output, error
    settled: list[float] = field(default_factory=list)  # moments that settled something

    @property
    def problem(self) -> str | None:
        status = self.end.get("status")
        if status in (None, "RUNNING") or (self.expected.cancelled and not self.cancelled):
            return "hung"
        if self.record.count("interrupt.resolved") > 1:
            return "resolved twice"
        if self.record.count("interrupt.delivered") > 1:
            return "resumed twice"
        if status != self.expected.status or not self.expected.check(self.end):
            return f"ended the wrong way: {self.kind}"
        return None

    @property
    def cancelled(self) -> bool:
        return self.record.count("interrupt.cancelled") == 1


def engine_end(soak: Soaker, kind: str, arn: str, bound: float) -> dict[str, Any]:
    """The run's engine's end (`status`, `output`, `error`, `stopped`), waited for until `bound`."""
    while True:
        if kind in DURABLE_KINDS:
            found = soak.durable.get_durable_execution(DurableExecutionArn=arn)
            end = {"status": found["Status"], "output": _json(found.get("Result"))}
            end["stopped"] = _epoch(found.get("EndTimestamp"))
        else:
            found = soak.sfn.describe_execution(executionArn=arn)
            end = {
                "status": found["status"],
                "output": _json(found.get("output")),
                "error": found.get("error"),
            }
            end["stopped"] = found["stopDate"].timestamp() if found.get("stopDate") else None
        if end["status"] != "RUNNING" or time.monotonic() > bound:
            return end
        time.sleep(0.5)


def _json(text: Any) -> Any:
    try:
        return json.loads(text) if text else None
    except ValueError:
        return text


def _epoch(value: Any) -> float | None:
    if isinstance(value, int | float):
        return float(value)
    return value.timestamp() if hasattr(value, "timestamp") else None


def live(soak: Soaker, number: int) -> Lived:
    kind = list(KINDS)[number % len(KINDS)]
    run_id = f"soak-{number:04d}-{os.urandom(3).hex()}"
    expected = KINDS[kind](soak, run_id)
    bound = time.monotonic() + HUNG_SECONDS
    end = engine_end(soak, kind, expected.arn, bound)
    record = RunRecord(run_id, {"status": end["status"]}, events_of(soak.stack, soak.reader, run_id))
    while expected.cancelled and record.count("interrupt.cancelled") == 0 and time.monotonic() < bound:
        time.sleep(1.0)  # its end event may be lost: the reconciler's look cancels it
        record.events = events_of(soak.stack, soak.reader, run_id)
    lived = Lived(kind, record, expected, end)
    lived.settled = sorted(moment(e["time"]) for e in record.events if e["type"] in SETTLING)
    if end.get("stopped"):
        lived.settled = sorted([*lived.settled, float(end["stopped"])])
    if lived.problem is None:
        SWEEPER.later(soak, run_id)
    return lived


SWEEPER = Sweeper()


def heal_seconds(lived: list[Lived], faults: list[dict[str, Any]]) -> tuple[list[float], int, int]:
    """Each fault's time to the first settling moment of its run after it; the faults named by no run
    of the soak (a stream record of another item, a call made outside a run's invocation); and those
    after which nothing of their run settled (it had: a lost end event of a run already resolved)."""
    by_run = {one.record.run_id: one for one in lived}
    seconds, unnamed, after = [], 0, 0
    for fault in faults:
        run = by_run.get(str(fault.get("runId") or fault.get("execution") or ""))
        if run is None:
            unnamed += 1
            continue
        at = moment(fault["at"])
        later = [when for when in run.settled if when >= at - 0.001]
        if later:
            seconds.append(max(0.0, later[0] - at))
        else:
            after += 1
    return seconds, unnamed, after


def load_average() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def run() -> list[Row]:
    started = time.monotonic()
    loads = [load_average()]
    with faulty_stack(FAULTS, RECONCILE) as stack, Operator(stack.environment) as operator:
        soak = Soaker(stack)
        with ThreadPoolExecutor(CONCURRENCY) as pool:
            lived = list(pool.map(lambda n: live(soak, n), range(RUNS)))
        loads.append(load_average())
        faults = struck(stack)
        passes = slow_passes(stack.output)
    seconds = time.monotonic() - started
    return [*rows(lived, faults, operator.redriven, seconds, loads), *pass_rows(passes)]


SLOW_PASS = re.compile(r"scheduled function \S*Reconcile\S* took (\d+(?:\.\d+)?) s")


def slow_passes(output: list[str]) -> list[float]:
    """The reconciler's passes that took over a second (the local stack says so), in seconds; with
    each pass's counts (its "reconcile pass" line) on stderr, to read beside them."""
    for line in output:
        if SLOW_PASS.search(line) or "reconcile pass" in line:
            print(f"chaos soak: {line.strip()[:400]}", file=sys.stderr)
    return [float(found.group(1)) for line in output if (found := SLOW_PASS.search(line))]


def pass_rows(passes: list[float]) -> list[Row]:
    note = "the passes over 1 s (local.standins.scheduled_functions says how long those took)"
    return [
        Row(GROUP, "reconciler passes over 1 s", len(passes), "count", "", None, note),
        Row(GROUP, "reconciler pass over 1 s, p50", round(percentile(passes, 0.5), 1), "s", "", None),
        Row(GROUP, "reconciler pass, max", round(max(passes, default=0.0), 1), "s", "", None),
    ]


def rows(
    lived: list[Lived], faults: list[dict[str, Any]], redriven: int, seconds: float, loads: list[str]
) -> list[Row]:
    problems = Counter(one.problem for one in lived if one.problem is not None)
    for one in lived:
        if one.problem is not None:  # what the failing ones did, to read (stderr: not the table)
            types = [event["type"] for event in one.record.events]
            print(f"chaos soak: {one.record.run_id} {one.problem}: {one.end}, {types}", file=sys.stderr)
    hops = Counter(str(fault["hop"]) for fault in faults)
    heals, unnamed, after = heal_seconds(lived, faults)
    wrong = sum(count for problem, count in problems.items() if problem.startswith("ended the wrong way"))
    note = f"{len(lived)} runs, {CONCURRENCY} at a time, reconciler every {RECONCILE:g} s"
    note += f", load average {loads[0]} before, {loads[-1]} at the end"
    kinds = Counter(one.kind for one in lived)
    return [
        Row(GROUP, "runs hung", problems["hung"], "count", "= 0", problems["hung"] == 0, note),
        Row(
            GROUP,
            "runs resumed twice",
            problems["resumed twice"],
            "count",
            "= 0",
            not problems["resumed twice"],
        ),
        Row(
            GROUP,
            "resolutions recorded twice",
            problems["resolved twice"],
            "count",
            "= 0",
            not problems["resolved twice"],
        ),
        Row(
            GROUP,
            "runs ended the wrong way",
            wrong,
            "count",
            "= 0",
            wrong == 0,
            ", ".join(f"{p.split(': ', 1)[1]} {c}" for p, c in problems.items() if p.startswith("ended"))
            or "none",
        ),
        Row(GROUP, "kinds", len(kinds), "count", "", None, ", ".join(f"{k} {c}" for k, c in kinds.items())),
        Row(
            GROUP,
            "faults that struck",
            sum(hops.values()),
            "count",
            "",
            None,
            ", ".join(f"{hop} {count}" for hop, count in sorted(hops.items())) or "none",
        ),
        Row(
            GROUP,
            "fault to heal, p50",
            round(percentile(heals, 0.5), 1),
            "s",
            "",
            None,
            f"{len(heals)} faults timed; {unnamed} named no run of the soak; {after} came after their "
            "run had settled",
        ),
        Row(GROUP, "fault to heal, max", round(max(heals, default=0.0), 1), "s", "", None),
        Row(
            GROUP,
            "deliveries re-driven by the operator",
            redriven,
            "count",
            "",
            None,
            "parked: InvalidOutput",
        ),
        Row(GROUP, "wall time", round(seconds, 1), "s", "", None),
    ]


if __name__ == "__main__":  # `make soak`: this module alone at its full count, its table printed
    from bench.__main__ import main

    for variable, full in (
        ("SOAK_RUNS", "1000"),
        ("BENCH_BOUND_SECONDS", "7200"),
        ("BENCH_RUN_SECONDS", "7200"),
    ):
        os.environ.setdefault(variable, full)
    sys.exit(main(["chaos_soak"]))
