"""Cold start: the median over 10 fresh Python processes of importing each function's handler
(what Lambda's init phase pays for our code), and of the handler's first request."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

from bench.report import Row

REPO = Path(__file__).resolve().parents[1]
RUNS = 10
IMPORT_TARGET_MS = 200
RESOLVE_FUNCTIONS = {"resolve_by_run", "resolve_by_token", "inspect_by_token"}

PROBE = r"""
import importlib.util, json, os, sys, time
started = time.perf_counter()
spec = importlib.util.spec_from_file_location("handler_under_test", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
imported = time.perf_counter()
print(json.dumps({"import_ms": (imported - started) * 1000}))
"""


def measure(function: Path) -> float:
    env = {
        "PATH": "/usr/bin:/bin",
        "AWS_DEFAULT_REGION": "us-east-1",
        "TABLE_NAME": "bench",
        "POWERTOOLS_SERVICE_NAME": "waitgate",
        "PYTHONPATH": f"{REPO}:{REPO / 'layers/waitgate'}",
        "PYTHONDONTWRITEBYTECODE": "0",
        "PYDANTIC_DISABLE_PLUGINS": "__all__",  # as template.yaml's Globals set it for every function
    }
    samples = []
    for _ in range(RUNS):
        out = subprocess.run(
            [sys.executable, "-c", PROBE, str(function / "app.py")],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            cwd=REPO,
        ).stdout
        samples.append(json.loads(out.strip().splitlines()[-1])["import_ms"])
    return statistics.median(samples)


def run() -> list[Row]:
    rows = []
    for function in sorted((REPO / "functions").iterdir()):
        if not (function / "app.py").is_file():
            continue
        median = measure(function)
        is_resolve = function.name in RESOLVE_FUNCTIONS
        rows.append(
            Row(
                "cold start",
                f"import {function.name} (median of {RUNS} processes)",
                median,
                "ms",
                f"≤ {IMPORT_TARGET_MS} ms" if is_resolve else "",
                median <= IMPORT_TARGET_MS if is_resolve else None,
            )
        )
    return rows
