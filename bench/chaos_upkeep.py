"""The chaos soak's upkeep (bench/chaos_soak.py): the operator who re-drives parked deliveries, as
docs/durability.md tells one to, and the sweep that keeps the table small, as a TTL would."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from typing import Any

from bench.throughput import forget
from local.stack_process import REPO_ROOT

OPERATOR_SECONDS = 15.0
SWEEP_AFTER_SECONDS = 30.0


class Operator:
    """Re-drives the parked deliveries every OPERATOR_SECONDS (`waitgate deliveries redrive --all`)."""

    def __init__(self, environment: dict[str, str]) -> None:
        self.environment, self.redriven = environment, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="soak-operator", daemon=True)

    def __enter__(self) -> Operator:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(timeout=120)

    def _run(self) -> None:
        while not self._stop.wait(OPERATOR_SECONDS):
            done = subprocess.run(
                [sys.executable, "-m", "local", "deliveries", "redrive", "--all"],
                cwd=REPO_ROOT,
                env=self.environment,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            self.redriven += sum(1 for line in done.stdout.splitlines() if line.endswith(": delivered"))


class Sweeper:
    """Sweeps each finished run's items from the table (as a TTL would) SWEEP_AFTER_SECONDS after it
    was read: its end event reaches the run lifecycle asynchronously, after the engine's end, and
    would otherwise leave its `run.status_changed` behind in a table swept too soon."""

    def __init__(self) -> None:
        self._waiting: list[tuple[float, str]] = []
        self._lock = threading.Lock()

    def later(self, soak: Any, run_id: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._waiting.append((now, run_id))
            due = [run for when, run in self._waiting if when < now - SWEEP_AFTER_SECONDS]
            self._waiting = [(when, run) for when, run in self._waiting if when >= now - SWEEP_AFTER_SECONDS]
        if due:
            forget(soak.dynamodb, soak.stack.table_name, due)
