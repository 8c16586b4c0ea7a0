"""What one local stack costs the machine: the wall and CPU time to start (`python -m local dev` until its
ready line, on free ports with a fresh state directory, `local.stack_process`), the share of a core it
uses while idle for IDLE_SECONDS, and the wall time to stop (SIGINT until the process has exited), as
the e2e tests and `make dev` start and stop it. CPU is read from /proc (the stack and its children,
the durable runner included), so the figures count the stack's own work, not the wait for a core on
a busy machine; the load average is in each note.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.report import Row
from local.stack_process import started_stack, stop

GROUP = "local stack"
RUNS = int(os.environ.get("WAITGATE_BENCH_STACK_RUNS") or 3)
IDLE_SECONDS = float(os.environ.get("WAITGATE_BENCH_IDLE_SECONDS") or 30)
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class StackCosts:
    start_seconds: float
    start_cpu_seconds: float
    idle_core_share: float  # 0.1: a tenth of one core
    stop_seconds: float


def cpu_seconds(root_pid: int) -> float:
    """User + system time of `root_pid` and every living descendant (and their waited-for children)."""
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue  # ended meanwhile
            stats[int(entry.name)] = text.rsplit(")", 1)[1].split()  # after "(comm)": state, ppid, ...
    tree, grew = {root_pid}, True
    while grew:
        more = {pid for pid, fields in stats.items() if int(fields[1]) in tree} - tree
        tree |= more
        grew = bool(more)
    ticks = sum(sum(int(value) for value in stats[pid][11:15]) for pid in tree if pid in stats)
    return ticks / TICKS_PER_SECOND


def measure_once() -> StackCosts:
    state_dir = Path(tempfile.mkdtemp(prefix="waitgate-bench-costs-"))
    try:
        started_at = time.perf_counter()
        with started_stack(state_dir) as stack:
            start_seconds = time.perf_counter() - started_at
            pid = stack.process.pid
            booted = cpu_seconds(pid)
            time.sleep(IDLE_SECONDS)  # a bench measures idling: nothing to wait for but the clock
            idle = (cpu_seconds(pid) - booted) / IDLE_SECONDS
            stopping_at = time.perf_counter()
            stop(stack.process)
            stop_seconds = time.perf_counter() - stopping_at
        return StackCosts(start_seconds, booted, idle, stop_seconds)
    finally:
        shutil.rmtree(state_dir, ignore_errors=True)


def run() -> list[Row]:
    samples = [measure_once() for _ in range(RUNS)]
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    note = f"median of {RUNS}; load {load}"

    def median(field: str) -> float:
        return float(statistics.median(getattr(sample, field) for sample in samples))

    spread = ", ".join(f"{s.idle_core_share * 100:.1f}" for s in samples)
    return [
        Row(GROUP, "start: until the ready line", median("start_seconds"), "s", note=note),
        Row(GROUP, "start: CPU of the stack and its runner", median("start_cpu_seconds"), "s", note=note),
        Row(
            GROUP,
            f"idle: share of a core over {IDLE_SECONDS:.0f} s",
            median("idle_core_share") * 100,
            "%",
            note=f"{note}; each: {spread} %",
        ),
        Row(GROUP, "stop: SIGINT until the process exited", median("stop_seconds"), "s", note=note),
    ]


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
