"""The local stack's metrics: every CloudWatch EMF line the functions print, kept in `metrics.jsonl`.

On AWS, CloudWatch Logs reads the EMF lines of the functions' logs and makes them metrics. Here the
functions print the same lines into the stack's log, and `local.patches.emf_lines` appends each to
this file as well (one EMF document per line, across restarts, until `waitgate dev --fresh`), so
`waitgate dev-metrics` can sum them up as CloudWatch would.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from local.state.state_dir import StateDir

EmfDocument = dict[str, Any]


@dataclass
class MetricsLog:
    state_dir: StateDir
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def append(self, document: EmfDocument) -> None:
        self.state_dir.ensure()
        line = json.dumps(document, separators=(",", ":")) + "\n"
        with self._lock, self.state_dir.metrics_log.open("a", encoding="utf-8") as log:
            log.write(line)

    def documents(self) -> Iterator[EmfDocument]:
        path = self.state_dir.metrics_log
        if not path.is_file():
            return
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                document = json.loads(line)
            except ValueError:
                continue  # a line cut short by a crash
            if isinstance(document, dict) and "_aws" in document:
                yield document


@dataclass(frozen=True)
class Point:
    """One metric value of an EMF document, with the dimensions of its first dimension set."""

    name: str
    unit: str
    value: float
    dimensions: tuple[tuple[str, str], ...]
    tenant_id: str
    timestamp_ms: int


def points_of(document: EmfDocument) -> Iterator[Point]:
    for directive in document["_aws"].get("CloudWatchMetrics", []):
        names = directive.get("Dimensions", [[]])[0]
        dimensions = tuple((name, str(document.get(name, ""))) for name in names if name != "service")
        for metric in directive.get("Metrics", []):
            values = document.get(metric["Name"])
            for value in values if isinstance(values, list) else [values]:
                if isinstance(value, int | float):
                    yield Point(
                        metric["Name"],
                        str(metric.get("Unit", "")),
                        float(value),
                        dimensions,
                        str(document.get("tenantId", "")),
                        int(document["_aws"].get("Timestamp", 0)),
                    )
