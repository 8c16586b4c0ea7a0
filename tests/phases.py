"""`make test`'s runner: stages one after another, the phases (make targets) of a stage at the same
time; each phase's output printed whole when it ends, and at the end a table of every phase's time
(wall clock, and the CPU its processes used: on a shared machine the steadier figure), cases and
five slowest tests, and the layer's coverage.

    python -m tests.phases --behind "static unit integration" "e2e static unit integration"

`--behind` names the phases that may run at a lower CPU priority (`--nice`; 10 unless said): on a
machine with fewer cores than runnable processes, the phases not named get the CPU first. `make test`
passes `--nice 0` unless TEST_BEHIND_NICE says otherwise (the Makefile says why): every phase then
competes equally, and the CPU-bound phases still run in the time the end-to-end tests spend waiting.

A phase that is a pytest run writes its JUnit XML to .cache/test-reports/PHASE.xml and its coverage
data to .cache/coverage/PHASE (the Makefile says so); this runner only reads them. The first stage
with a failed phase is the last one run, as with make.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

from tests.support import hypothesis_profiles

REPO_ROOT = Path(__file__).resolve().parents[1]
REPORTS = REPO_ROOT / ".cache" / "test-reports"
COVERAGE = REPO_ROOT / ".cache" / "coverage"
# WAITGATE_MODEL_CHECK_TALLY: each process writes what the model check saw there (strict_requests)
MODEL_CHECK = REPO_ROOT / ".cache" / "model-check"
SLOWEST = 5
BEHIND_NICENESS = 10  # a process at nice 10 gets about a tenth of the CPU one at nice 0 gets


@dataclass
class Case:
    name: str
    seconds: float
    outcome: str


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    returncode: int | None = None
    cases: list[Case] = field(default_factory=list)
    cpu_seconds: float = 0.0  # of the phase's processes (those it waited for), user and system

    @property
    def passed(self) -> bool:
        return self.returncode == 0

    def counts(self) -> str:
        if not self.cases:
            return "-"
        outcomes = [case.outcome for case in self.cases]
        said = [f"{outcomes.count(o)} {o}" for o in ("passed", "failed", "error", "skipped") if o in outcomes]
        return ", ".join(said)


def run_stage(
    names: list[str], behind: frozenset[str] = frozenset(), niceness: int = BEHIND_NICENESS
) -> list[Phase]:
    """The phases of one stage, started together; each one's output printed when it ends. The phases
    in `behind` run at nice `niceness` (their processes too: niceness is inherited)."""
    REPORTS.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    running = {}
    for name in names:
        log = (REPORTS / f"{name}.log").open("w+", encoding="utf-8")
        process = subprocess.Popen(
            ["make", "--no-print-directory", name],
            cwd=REPO_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=functools.partial(os.nice, niceness) if name in behind else None,
        )
        running[name] = (process, log)
        said = f" (behind: nice {niceness})" if name in behind and niceness else ""
        print(f"make test: {name} started{said}", flush=True)
    phases = []
    while running:
        for name, (process, log) in list(running.items()):
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid == 0:
                continue
            del running[name]
            process.returncode = os.waitstatus_to_exitcode(status)
            phase = Phase(name, time.monotonic() - started, process.returncode, cases_of(name))
            phase.cpu_seconds = usage.ru_utime + usage.ru_stime
            log.seek(0)
            print(
                f"\n===== {name}: {'passed' if phase.passed else 'FAILED'} in {phase.seconds:.0f} s"
                f" ({phase.cpu_seconds:.0f} CPU-s) ====="
            )
            print(log.read(), end="", flush=True)
            log.close()
            phases.append(phase)
        time.sleep(0.5)
    return phases


def cases_of(name: str) -> list[Case]:
    """The test cases of a pytest phase, from its JUnit XML (none for a phase that is not pytest)."""
    path = REPORTS / f"{name}.xml"
    if not path.exists():
        return []
    cases = []
    for case in ElementTree.parse(path).iter("testcase"):
        outcome = "passed"
        for child, said in (("failure", "failed"), ("error", "error"), ("skipped", "skipped")):
            if case.find(child) is not None:
                outcome = said
        label = f"{case.get('classname', '')}::{case.get('name', '')}"
        cases.append(Case(label, float(case.get("time") or 0), outcome))
    return cases


def coverage_line() -> str:
    """The layer's coverage over every phase that measured it: statements and branches together
    (coverage.py's total), and branches alone."""
    files = sorted(p for p in COVERAGE.glob("*") if p.is_file() and "." not in p.name)
    if not files:
        return "coverage: not measured"
    import coverage

    combined = coverage.Coverage(data_file=str(COVERAGE / "all.combined"), branch=True)
    combined.combine([str(f) for f in files], keep=True)
    combined.save()
    report = COVERAGE / "all.json"
    combined.json_report(outfile=str(report))
    totals = json.loads(report.read_text(encoding="utf-8"))["totals"]
    covered, branches = totals["covered_branches"], totals["num_branches"]
    share = 100 * covered / branches if branches else 0.0
    return (
        f"coverage of layers/waitgate/waitgate ({', '.join(f.name for f in files)}): "
        f"{totals['percent_covered']:.2f}% of statements and branches; "
        f"statements {totals['covered_lines']}/{totals['num_statements']}, "
        f"branches {covered}/{branches} ({share:.2f}%)"
    )


def model_check_line() -> str:
    """What the strict model check saw over every process of the run that made AWS calls (tests,
    local stacks, CLI commands): calls, operations, and the calls AWS would have refused."""
    files = sorted(MODEL_CHECK.glob("model-check-*.json"))
    tallies = [json.loads(path.read_text(encoding="utf-8")) for path in files]
    if not tallies:
        return "model check: no AWS call seen"
    operations = {name for tally in tallies for name in tally["operations"]}
    calls = sum(tally["calls"] for tally in tallies)
    refused = sum(tally["violations"] for tally in tallies)
    expected = sum(tally.get("expectedRefusals", 0) for tally in tallies)
    return (
        f"model check (botocore's models: types, sizes, patterns, enums): {calls:,} calls of "
        f"{len(operations)} operations in {len(tallies)} processes; {refused} AWS would refuse "
        f"({expected} refused on purpose by tests of the refusals)"
    )


def summary(phases: list[Phase], seconds: float) -> str:
    lines = [
        "",
        "===== make test: summary =====",
        f"{'phase':<14}{'result':<9}{'seconds':>8}{'CPU-s':>8}  cases",
    ]
    for phase in phases:
        result = "passed" if phase.passed else "FAILED"
        lines.append(
            f"{phase.name:<14}{result:<9}{phase.seconds:>8.0f}{phase.cpu_seconds:>8.0f}  {phase.counts()}"
        )
    cpu = sum(p.cpu_seconds for p in phases)
    load = " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])
    lines.append(f"{'total':<23}{seconds:>8.0f}{cpu:>8.0f}  {sum(len(p.cases) for p in phases)} cases")
    lines.append(f"(seconds: wall clock, from the stage's start; load average at the end: {load})")
    for phase in phases:
        if phase.cases:
            lines.append(f"slowest of {phase.name}:")
            for case in sorted(phase.cases, key=lambda c: -c.seconds)[:SLOWEST]:
                lines.append(f"  {case.seconds:8.2f} s  {case.name}")
    lines.append(coverage_line())
    lines.append(model_check_line())
    lines.append(hypothesis_profiles.described())
    return "\n".join(lines)


def main(stages: list[str], behind: frozenset[str] = frozenset(), niceness: int = BEHIND_NICENESS) -> int:
    for stale in [*REPORTS.glob("*.xml"), *COVERAGE.glob("*"), *MODEL_CHECK.glob("*.json")]:
        stale.unlink()
    os.environ["WAITGATE_MODEL_CHECK_TALLY"] = str(MODEL_CHECK)  # every phase's processes count their calls
    started = time.monotonic()
    phases: list[Phase] = []
    for stage in stages:
        stage_started = time.monotonic()
        done = run_stage(stage.split(), behind, niceness)
        phases += done
        if len(done) > 1:
            print(f"make test: stage '{stage}' took {time.monotonic() - stage_started:.0f} s", flush=True)
        if not all(phase.passed for phase in done):
            break
    print(summary(phases, time.monotonic() - started), flush=True)
    return 0 if phases and all(phase.passed for phase in phases) and len(phases) >= _count(stages) else 1


def _count(stages: list[str]) -> int:
    return sum(len(stage.split()) for stage in stages)


def parsed_arguments(arguments: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.phases", description=__doc__.split("\n\n")[0])
    parser.add_argument("--behind", default="", help="phases run at a lower priority, space-separated")
    parser.add_argument("--nice", type=int, default=BEHIND_NICENESS, help="their niceness (1 to 19)")
    parser.add_argument("stages", nargs="+", help="one argument a stage: its phases, space-separated")
    return parser.parse_args(arguments)


if __name__ == "__main__":
    parsed = parsed_arguments(sys.argv[1:])
    sys.exit(main(parsed.stages, frozenset(parsed.behind.split()), parsed.nice))
