"""One bench module run within its bound, in a process of its own.

`run_bounded` starts `python -m bench.bounded NAME ROWS_FILE` in a new session, with the module's scaled
counts and its bound (BENCH_BOUND_SECONDS, which a module may read to stop early with what it measured,
`bench.report.bound_seconds`). Past the bound the process gets SIGINT (a KeyboardInterrupt: the
module's `with` blocks stop its local stacks); STOP_GRACE_SECONDS later whatever is left of its session
is killed. The outcome is the module's rows, or a row saying why there are none: failed, or stopped at
its bound. A module the tree does not have gives neither (other branches add modules).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.plan import STOP_GRACE_SECONDS, Plan
from bench.report import Row

BOUND_VARIABLE = "BENCH_BOUND_SECONDS"


@dataclass(frozen=True)
class Outcome:
    name: str
    seconds: float
    bound_seconds: float
    rows: list[Row] = field(default_factory=list)
    stopped: str = ""  # empty when the module finished; else why it did not
    missing: bool = False  # no such module in this tree

    def summary(self) -> dict[str, object]:
        return {
            "module": self.name,
            "seconds": round(self.seconds, 1),
            "boundSeconds": self.bound_seconds,
            "finished": not self.stopped,
            "stopped": self.stopped,
        }


def unfinished_row(outcome: Outcome) -> Row:
    return Row(
        outcome.name,
        "did not finish",
        round(outcome.seconds, 1),
        "s",
        f"≤ {outcome.bound_seconds:.0f} s",
        False,
        outcome.stopped,
    )


def run_bounded(
    name: str, plan: Plan, bound_seconds: float, grace_seconds: float = STOP_GRACE_SECONDS
) -> Outcome:
    """Run the module `name` (`bench.<name>`, or a dotted module path) within `bound_seconds`."""
    environment = {**plan.counts, **os.environ, BOUND_VARIABLE: f"{bound_seconds:g}"}
    with tempfile.TemporaryDirectory(prefix="waitgate-bench-rows-") as scratch:
        rows_file = Path(scratch) / "rows.json"
        started = time.monotonic()
        process = subprocess.Popen(  # this interpreter running this repository's own module
            [sys.executable, "-m", "bench.bounded", name, str(rows_file)],
            env=environment,
            start_new_session=True,
        )
        stopped = _wait(process, bound_seconds, grace_seconds)
        seconds = time.monotonic() - started
        answer = json.loads(rows_file.read_text()) if rows_file.exists() else {}
    if answer.get("missing"):
        return Outcome(name, seconds, bound_seconds, missing=True)
    rows = [Row(**row) for row in answer.get("rows", [])]
    why = stopped or answer.get("failed", "")
    if not why and not answer:
        why = f"its process ended with status {process.returncode} and wrote no rows"
    return Outcome(name, seconds, bound_seconds, rows, why)


def _wait(process: subprocess.Popen[bytes], bound_seconds: float, grace_seconds: float) -> str:
    """Wait for the module's process; stop it at its bound. Why it was stopped, or ""."""
    why = ""
    try:
        process.wait(timeout=bound_seconds)
    except subprocess.TimeoutExpired:
        why = f"stopped at its bound of {bound_seconds:.0f} s"
        if not _stop(process, grace_seconds):
            why += f", killed {grace_seconds:.0f} s later"
    except KeyboardInterrupt:  # the run itself interrupted: the module (in a session of its own) too
        _stop(process, grace_seconds)
        _kill_session(process)
        raise
    _kill_session(process)
    return why


def _stop(process: subprocess.Popen[bytes], grace_seconds: float) -> bool:
    """SIGINT, then up to `grace_seconds` to stop; whether it did."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        return False
    return True


def _kill_session(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):  # what the module left running (a stack it did not
        os.killpg(process.pid, signal.SIGKILL)  # stop), and the process itself if it hangs
    process.wait()


def _child(name: str, rows_file: Path) -> int:
    """In the module's own process: import it, run it, write its rows (or why it has none)."""
    from local.patches import strict_requests

    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    strict_requests.install()  # the benches' calls refused where AWS would refuse them
    path = name if "." in name else f"bench.{name}"
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as error:
        if error.name != path:
            raise
        rows_file.write_text(json.dumps({"missing": True}))
        return 0
    answer: dict[str, object]
    try:
        answer = {"rows": [asdict(row) for row in module.run()]}
    except KeyboardInterrupt:
        answer = {"failed": "stopped at its bound"}
    except Exception as error:
        traceback.print_exc()
        answer = {"failed": f"failed: {type(error).__name__}: {str(error)[:300]}"}
    rows_file.write_text(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1], Path(sys.argv[2])))
