"""`make bench`: run every benchmark module, each in a process of its own within its bound, print one
table, write it as JSON (bench/results/latest.json)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bench.bounded import Outcome, run_bounded, unfinished_row
from bench.plan import STOP_GRACE_SECONDS, in_run_order, plan_of, run_seconds
from bench.report import Row, machine, print_table, write_json

MODULES = [
    "package_size",
    "cold_start",
    "cost",
    "cpu",
    "tokens",
    "roundtrips",
    "scale",
    "inbox",
    "reconcile",
    "throughput",
    "first_request",
    "soak",
    "chaos_soak",
    "races",
    "slack_clicks",
    "slack_ack",
    "durable_roundtrip",
    "cli_start",
    "stack_costs",
    "mcp_roundtrip",
    "agent_roundtrip",
    "ledger",
    "fingerprint",
    "webhooks_out",
]
MIN_BOUND_SECONDS = 20.0  # less left than this: the module is not started, and a row says so


def main(selected: list[str], results: str | Path = "latest.json") -> int:
    """Each module in its own process within its bound (bench/plan.py), the whole run within
    `plan.run_seconds()`; the JSON rewritten after each module, with a row for each that did not finish."""
    rows: list[Row] = []
    modules: list[dict[str, object]] = []
    ends = time.monotonic() + run_seconds()
    for name in selected or in_run_order(MODULES):
        plan = plan_of(name)
        left = ends - time.monotonic() - STOP_GRACE_SECONDS
        if left < MIN_BOUND_SECONDS:
            outcome = Outcome(
                name, 0.0, plan.bound_seconds, stopped=f"not run: the run's {run_seconds():.0f} s were spent"
            )
        else:
            print(f"… {name}", file=sys.stderr, flush=True)
            outcome = run_bounded(name, plan, min(plan.bound_seconds, left))
        if outcome.missing:
            continue
        rows.extend(outcome.rows)
        if outcome.stopped:
            rows.append(unfinished_row(outcome))
        modules.append(outcome.summary())
        write_json(rows, results, modules)
    print(f"waitgate benchmarks — {machine()}")
    print_table(rows)
    print(f"written to {write_json(rows, results, modules)}")
    return 1 if any(not module["finished"] for module in modules) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
