"""A benchmark row, and the one table `make bench` prints and writes as JSON."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Row:
    group: str
    metric: str
    value: float
    unit: str
    target: str = ""
    met: bool | None = None
    note: str = ""


def median_seconds(action: Callable[[], Any], *, repeat: int = 7, number: int = 1000) -> float:
    """Median over `repeat` batches of the per-call time of `action` (seconds)."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(number):
            action()
        samples.append((time.perf_counter() - started) / number)
    return statistics.median(samples)


def bound_seconds(default: float) -> float:
    """How long this module may take: the bound `make bench` gave it (BENCH_BOUND_SECONDS), or
    `default` when it runs on its own. A module that works in rounds stops at it with what it measured."""
    return float(os.environ.get("BENCH_BOUND_SECONDS") or default)


def machine() -> dict[str, Any]:
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "load": [round(value, 1) for value in os.getloadavg()],
    }


def print_table(rows: list[Row]) -> None:
    widths = (14, 58, 14, 16, 5)
    header = ("group", "metric", "value", "target", "met")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        met = "" if row.met is None else ("yes" if row.met else "NO")
        value = f"{row.value:,.3f} {row.unit}" if row.value < 1000 else f"{row.value:,.0f} {row.unit}"
        cells = (row.group, row.metric, value, row.target, met)
        print("  ".join(str(c)[:w].ljust(w) for c, w in zip(cells, widths, strict=True)))
        if row.note:
            print(" " * (widths[0] + 2) + f"↳ {row.note}")


def write_json(
    rows: list[Row], name: str | Path = "latest.json", modules: list[dict[str, Any]] | None = None
) -> Path:
    """The table as JSON; `modules`: how long each module ran, within which bound, and whether it
    finished (`make bench` rewrites the file after each module, so a stopped run leaves what it had)."""
    path = RESULTS / name  # an absolute `name` is the path itself
    path.parent.mkdir(parents=True, exist_ok=True)
    document: dict[str, Any] = {"machine": machine(), "rows": [asdict(r) for r in rows]}
    if modules is not None:
        document["modules"] = modules
    path.write_text(json.dumps(document, indent=2) + "\n")
    return path
