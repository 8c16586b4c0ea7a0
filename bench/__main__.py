"""`make bench`: run every benchmark module in one process run, print one table, write it as JSON."""

from __future__ import annotations

import importlib
import os
import sys
import traceback

from bench.report import Row, machine, print_table, write_json
from local.patches import strict_requests

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
    "ledger",
    "webhooks_out",
]


def main(selected: list[str]) -> int:
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    strict_requests.install()  # the benches' calls refused where AWS would refuse them
    rows: list[Row] = []
    failed = []
    for name in selected or MODULES:
        try:
            module = importlib.import_module(f"bench.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"bench.{name}":
                continue
            raise
        print(f"… {name}", file=sys.stderr, flush=True)
        try:
            rows.extend(module.run())
        except Exception:
            failed.append(name)
            traceback.print_exc()
    print(f"waitgate benchmarks — {machine()}")
    print_table(rows)
    print(f"written to {write_json(rows)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
