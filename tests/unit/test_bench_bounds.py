"""`make bench`'s runner (bench/__main__.py, bench/bounded.py) with fake modules: each runs in a process
of its own within its bound; one that fails or outlives its bound gives a row saying so, the others'
rows are kept, the JSON holds both; one left running past its grace is killed with what it started."""

from __future__ import annotations

import json
import os
import textwrap
import time
from pathlib import Path

import pytest

from bench import plan as bench_plan
from bench.__main__ import main
from bench.bounded import run_bounded
from bench.plan import Plan

FAKES = {
    "measures": """
        import os
        from bench.report import Row

        def run():
            counted = os.environ["FAKE_COUNT"]
            bound = os.environ["BENCH_BOUND_SECONDS"]
            return [Row("fake", f"counted {counted}, bound {bound}", 1.5, "ms")]
    """,
    "fails": """
        def run():
            raise RuntimeError("the stack did not start")
    """,
    "never_ends": """
        import threading

        def run():
            threading.Event().wait()  # only the runner's bound ends it
    """,
    "ignores_its_stop": """
        import os, signal, subprocess, sys, threading

        def run():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            left = subprocess.Popen([sys.executable, "-c", "import threading; threading.Event().wait()"])
            with open(os.environ["FAKE_PID_FILE"], "w") as out:
                out.write(str(left.pid))
            threading.Event().wait()
    """,
}


@pytest.fixture
def fakes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    package = tmp_path / "fakebench"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, source in FAKES.items():
        (package / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.delenv("BENCH_BOUND_SECONDS", raising=False)
    monkeypatch.delenv("BENCH_RUN_SECONDS", raising=False)
    return tmp_path


def test_a_module_runs_with_its_scaled_counts_and_its_bound(fakes: Path) -> None:
    outcome = run_bounded("fakebench.measures", Plan(300, {"FAKE_COUNT": "120"}), 300)

    assert outcome.stopped == ""
    assert [row.metric for row in outcome.rows] == ["counted 120, bound 300"]


def test_a_count_already_in_the_environment_wins(fakes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_COUNT", "1000")

    outcome = run_bounded("fakebench.measures", Plan(300, {"FAKE_COUNT": "120"}), 300)

    assert [row.metric for row in outcome.rows] == ["counted 1000, bound 300"]


def test_the_json_keeps_every_finished_row_and_a_row_per_module_that_did_not_finish(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(bench_plan.PLANS, "fakebench.measures", Plan(300, {"FAKE_COUNT": "7"}))
    monkeypatch.setitem(bench_plan.PLANS, "fakebench.never_ends", Plan(3))
    results = fakes / "results.json"

    status = main(
        ["fakebench.measures", "fakebench.fails", "fakebench.never_ends", "fakebench.absent"], results
    )

    written = json.loads(results.read_text())
    rows = {(row["group"], row["metric"]): row for row in written["rows"]}
    assert status == 1
    assert rows[("fake", "counted 7, bound 300")]["value"] == 1.5
    failed = rows[("fakebench.fails", "did not finish")]
    assert failed["met"] is False
    assert failed["note"] == "failed: RuntimeError: the stack did not start"
    stopped = rows[("fakebench.never_ends", "did not finish")]
    assert stopped["note"] == "stopped at its bound of 3 s"
    assert stopped["target"] == "≤ 3 s"
    assert [(m["module"], m["finished"]) for m in written["modules"]] == [
        ("fakebench.measures", True),
        ("fakebench.fails", False),
        ("fakebench.never_ends", False),
    ]


def test_a_module_that_ignores_its_stop_is_killed_with_what_it_started(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid_file = fakes / "left.pid"
    monkeypatch.setenv("FAKE_PID_FILE", str(pid_file))

    outcome = run_bounded("fakebench.ignores_its_stop", Plan(), 5, grace_seconds=1)

    assert outcome.stopped == "stopped at its bound of 5 s, killed 1 s later"
    assert outcome.rows == []
    assert _ends(int(pid_file.read_text()))


def test_a_run_whose_time_is_spent_starts_no_more_modules(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENCH_RUN_SECONDS", "0")
    results = fakes / "results.json"

    assert main(["fakebench.measures"], results) == 1

    (row,) = json.loads(results.read_text())["rows"]
    assert (row["metric"], row["note"]) == ("did not finish", "not run: the run's 0 s were spent")


def _ends(pid: int) -> bool:
    """Whether `pid` ends (SIGKILL is delivered, not waited for): gone, or a zombie awaiting its reaper."""
    for _ in range(500):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        time.sleep(0.01)
    return False
