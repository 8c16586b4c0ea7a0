"""`waitgate dev-metrics`: the metrics the running local stack's functions emitted, summed up.

It reads the stack's metrics log (`metrics.jsonl` in the state directory: every EMF line the functions
printed, across restarts, until `waitgate dev --fresh`) and sums each metric per dimensions as
CloudWatch would: counts add up, times give their p50, p90 and maximum. Reading changes nothing.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from typing import Any

from local.standins.metrics_log import MetricsLog, Point, points_of
from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir

DESCRIPTION = """\
Sum up the metrics the running local stack's functions emitted (CloudWatch EMF lines, the same the
stack's log shows): per metric and dimensions, how many values and their sum; for times (TimeToDecision)
their p50, p90 and maximum. The tenant is a property of each line, never a dimension: --tenant filters
on it. What a metric means: docs/operations.md."""
EXAMPLE = """\
example:
  waitgate dev-metrics
  waitgate dev-metrics --metric TimeToDecision --tenant acme
  waitgate dev-metrics --json            # the EMF documents themselves, one per line"""


def add_metrics_parser(commands: Any) -> None:
    metrics = commands.add_parser(
        "dev-metrics",
        help="sum up the metrics (EMF lines) the local stack's functions emitted",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    metrics.add_argument("--metric", help="only this metric, e.g. InterruptsResolved (default: all)")
    metrics.add_argument("--tenant", help="only lines of this tenant (default: every tenant's)")
    metrics.add_argument("--json", action="store_true", help="the EMF documents, one per line")


def run_metrics(arguments: argparse.Namespace) -> int:
    state_dir = StateDir.from_environment()
    running_stack_description(state_dir)
    documents = list(MetricsLog(state_dir).documents())
    if arguments.json:
        for document in documents:
            if any(_wanted(point, arguments) for point in points_of(document)):
                print(json.dumps(document, separators=(",", ":")))
        return 0
    points = [point for document in documents for point in points_of(document) if _wanted(point, arguments)]
    if not points:
        print("(no metrics yet: they appear once the stack has handled a request)")
        return 0
    for line in summary(points):
        print(line)
    return 0


def _wanted(point: Point, arguments: argparse.Namespace) -> bool:
    return (arguments.metric is None or point.name == arguments.metric) and (
        arguments.tenant is None or point.tenant_id == arguments.tenant
    )


WIDTHS = ("<22", "<40", ">6", ">10", ">10", ">10", ">10")


def summary(points: list[Point]) -> list[str]:
    grouped: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[float]] = defaultdict(list)
    for point in points:
        grouped[(point.name, point.unit, point.dimensions)].append(point.value)
    header = ("metric", "dimensions", "values", "sum", "p50", "p90", "max")
    lines = [" ".join(f"{h:{w}}" for h, w in zip(header, WIDTHS, strict=True)).rstrip()]
    for (name, unit, dimensions), values in sorted(grouped.items()):
        shown = " ".join(f"{key}={value}" for key, value in dimensions) or "-"
        line = f"{name:<22} {shown:<40} {len(values):>6} {_number(sum(values)):>10}"
        if unit == "Milliseconds":
            times = (percentile(values, 50), percentile(values, 90), max(values))
            line += "".join(f" {_ms(value):>10}" for value in times)
        lines.append(line)
    return lines


def percentile(values: list[float], rank: float) -> float:
    """The nearest-rank percentile (what a CloudWatch pNN of these exact values says)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(rank / 100 * len(ordered)) - 1)]


def _number(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def _ms(value: float) -> str:
    return f"{value:.0f} ms"
