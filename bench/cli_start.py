"""How long a `waitgate` command takes to start and answer, each in a fresh process (`python -m local
...`, which is `waitgate ...`), median over 7 processes, against a local stack this bench starts:
what a developer waits for each time they type one. Each command imports only what it needs (the
command's own module; boto3 and botocore only for a command that calls AWS), so the figures say what
that costs: `--help` and `--version` import no command at all.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

from bench.local_stack import BenchStack
from bench.report import Row
from local.stack_process import REPO_ROOT

GROUP = "cli start"
RUNS = 7
TARGETS_MS = {("--help",): 300, ("--version",): 300, ("dev-inbox",): 600}  # issue 34: wall time
COMMANDS = (
    ("--help",),
    ("--version",),
    ("dev-inbox",),
    ("dev-jwt", "--sub", "alice"),
    ("dev-metrics",),
    ("directory", "list", "--group", "release"),
    ("deliveries", "list"),
)


def _seconds(arguments: tuple[str, ...], environment: dict[str, str]) -> tuple[float, float]:
    """The command's wall time and its CPU time (user + system): on a shared machine the wall time
    also counts waiting for a core, the CPU time does not."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "local", *arguments], cwd=REPO_ROOT, env=environment, capture_output=True
    )
    elapsed, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"waitgate {' '.join(arguments)} failed: {done.stderr.strip()!r}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run() -> list[Row]:
    with BenchStack() as stack:
        rows = []
        for arguments in COMMANDS:
            _seconds(arguments, stack.environment)  # the bytecode cache written once, as after install
            samples = [_seconds(arguments, stack.environment) for _ in range(RUNS)]
            wall = statistics.median(sample[0] for sample in samples) * 1000
            cpu = statistics.median(sample[1] for sample in samples) * 1000
            load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
            name = f"waitgate {' '.join(arguments)} (median of {RUNS})"
            target = TARGETS_MS.get(arguments)
            rows.append(
                Row(GROUP, name, wall, "ms", target=f"≤ {target} ms" if target else "",
                    met=None if target is None else wall <= target,
                    note=f"wall; CPU {cpu:.0f} ms (median, same runs); load {load}")
            )  # fmt: skip
        return rows


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
