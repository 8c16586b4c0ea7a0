"""Cold start: importing each function's handler in fresh Python processes (what Lambda's init phase
pays for our code), from the dev tree under this Python, and — for every function of the template —
from the `sam build` artifact under the runtime's Python (3.13) as Lambda runs it: bytecode shipped,
/opt and /var/task read-only (nothing written), tracing on (a Lambda environment with a trace header:
the X-Ray SDK still loads only on the first invocation, whose cost is its own row). Beside them, for
the resolve and inspect handlers, the same artifact with its bytecode ignored: what every cold start
would compile without it (docs/performance.md, "Bytecode").

Each import is timed twice in its process: CPU time (user + system of the process, `time.process_time`)
and wall time. On a machine shared with other work the wall time is mostly waiting for a core, so a
row's value and its target are the median CPU time; its note gives the median and the fastest wall time
of the same processes. The targets (issue 34): ≤ 200 ms for a function behind the HTTP API, ≤ 250 ms
for every other.

The module fits its bound (bench/plan.py) with what it measured: the built artifact's rows first (they
carry the targets), RUNS processes each, then the dev tree's, DEV_RUNS each; the tracer's first load only
in the processes of the functions whose row reports it. Before each function it checks the time left
(BENCH_BOUND_SECONDS less a margin); what it had no time for is named in one row, and the rows it
measured are kept."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import built as build
from bench.plan import PLANS
from bench.report import Row, bound_seconds

REPO = Path(__file__).resolve().parents[1]
RUNS = 10  # processes per built function: the rows with a target
DEV_RUNS = 3  # per dev-tree function: a comparison, no target of its own
UNCOMPILED_RUNS = 3  # per resolve function with its bytecode ignored (~0.9 s of CPU each)
MARGIN_SECONDS = 15.0  # left of the bound for writing the rows: a function is not started past it
IMPORT_TARGET_MS = 200
OTHER_TARGET_MS = 250
RESOLVE_FUNCTIONS = {"resolve_by_run", "resolve_by_token", "inspect_by_token"}
TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"

PROBE = r"""
import importlib.util, json, os, sys, time
started, cpu_started = time.perf_counter(), time.process_time()
spec = importlib.util.spec_from_file_location("handler_under_test", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
imported, cpu_imported = time.perf_counter(), time.process_time()
answer = {"import_ms": (imported - started) * 1000, "import_cpu_ms": (cpu_imported - cpu_started) * 1000}
if len(sys.argv) > 2:  # what the first traced invocation adds: the tracer, the X-Ray SDK, the patch
    from waitgate.adapters import xray_tracing
    assert xray_tracing.tracing_enabled()
    xray_tracing.tracer()
    answer["tracer_ms"] = (time.perf_counter() - imported) * 1000
print(json.dumps(answer))
"""


def _environment(pythonpath: str) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "AWS_DEFAULT_REGION": "us-east-1",
        "TABLE_NAME": "bench",
        "POWERTOOLS_SERVICE_NAME": "waitgate",
        "PYTHONPATH": pythonpath,
        "PYDANTIC_DISABLE_PLUGINS": "__all__",  # as template.yaml's Globals set it for every function
    }


@dataclass(frozen=True)
class Imports:
    """One handler's imports in fresh processes: CPU and wall milliseconds of each."""

    cpu_ms: list[float]
    wall_ms: list[float]

    @classmethod
    def of(cls, samples: list[dict[str, float]]) -> Imports:
        return cls([s["import_cpu_ms"] for s in samples], [s["import_ms"] for s in samples])

    def median_cpu(self) -> float:
        return statistics.median(self.cpu_ms)

    def wall(self) -> str:
        return f"wall: median {statistics.median(self.wall_ms):.0f} ms, fastest {min(self.wall_ms):.0f} ms"


def measure(function: Path, runs: int = DEV_RUNS) -> Imports:
    env = {**_environment(f"{REPO}:{REPO / 'layers/waitgate'}"), "PYTHONDONTWRITEBYTECODE": "0"}
    return Imports.of(_samples(sys.executable, function, env, runs=runs))


class Clock:
    """The module's time left: whether one more function (as long as the longest so far) still fits."""

    def __init__(self, seconds: float) -> None:
        self.ends = time.monotonic() + seconds
        self.longest = 0.0

    def fits(self) -> bool:
        return time.monotonic() + self.longest < self.ends

    def timed(self, started: float) -> None:
        self.longest = max(self.longest, time.monotonic() - started)


def unmeasured_row(what: str, names: list[str], met: bool | None) -> Row:
    return Row("cold start", f"{what}: not measured within the bound", len(names), "functions",
               met=met, note=", ".join(names))  # fmt: skip


def target_of(name: str, http: set[str]) -> int:
    """≤ 200 ms for a function the HTTP API invokes (a person or a client waits), ≤ 250 ms otherwise."""
    return IMPORT_TARGET_MS if name in http else OTHER_TARGET_MS


def import_row(metric: str, imports: Imports, target_ms: int) -> Row:
    median = imports.median_cpu()
    return Row("cold start", metric, median, "ms CPU", f"≤ {target_ms} ms", median <= target_ms,
               f"median of {len(imports.cpu_ms)} processes' CPU time; {imports.wall()}")  # fmt: skip


def _samples(
    python: str, function: Path, env: dict[str, str], *extra: str, runs: int = RUNS
) -> list[dict[str, float]]:
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [python, "-c", PROBE, str(function / "app.py"), *extra],
            env=env, check=True, capture_output=True, text=True, cwd=function,
        ).stdout  # fmt: skip
        samples.append(json.loads(out.strip().splitlines()[-1]))
    return samples


def _lambda_environment(artifact: build.Built, function: Path) -> dict[str, str]:
    """What Lambda gives a traced function: the task root, the trace header, nothing writable."""
    pythonpath = f"{function}:{artifact.layer()}:{artifact.sdk}"
    return {
        **_environment(pythonpath),
        "PYTHONDONTWRITEBYTECODE": "1",  # /var/task and /opt are read-only
        "LAMBDA_TASK_ROOT": str(function),
        "AWS_LAMBDA_FUNCTION_NAME": function.name,
        "_X_AMZN_TRACE_ID": TRACE_HEADER,
        "AWS_XRAY_CONTEXT_MISSING": "IGNORE_ERROR",
        "AWS_ACCESS_KEY_ID": "bench",
        "AWS_SECRET_ACCESS_KEY": "bench",
    }


def template_functions() -> tuple[dict[str, str], set[str]]:
    """functions/<name>/ → the template's logical id of that function; and the names of those the HTTP
    API invokes (an `HttpApi` event)."""
    from local.template.sam_template import load_template

    found, http = {}, set()
    for logical_id, resource in load_template()["Resources"].items():
        properties = resource.get("Properties", {})
        code = properties.get("CodeUri", "")
        if resource["Type"] == "AWS::Serverless::Function" and code.startswith("functions/"):
            name = code.strip("/").split("/")[1]
            found[name] = logical_id
            if any(e.get("Type") == "HttpApi" for e in (properties.get("Events") or {}).values()):
                http.add(name)
    return found, http


def built_rows(clock: Clock) -> list[Row]:
    try:
        artifact = build.built()
    except build.NotBuilt as why:
        return [Row("cold start", "built artifact: not measured", 0, "", note=str(why))]
    sources, compiled = build.bytecode_of(artifact.layer())
    rows = [
        Row("cold start", f"built layer: modules with Python {build.RUNTIME} bytecode", compiled, "of "
            f"{sources}", f"all {sources}", compiled == sources, f"sam build, {artifact.architecture}, "
            f"{Path(artifact.python).name} {artifact.python}"),
    ]  # fmt: skip
    ids, http = template_functions()
    left = sorted(ids)
    while left and clock.fits():
        started, name = time.monotonic(), left.pop(0)
        rows += _built_function_rows(artifact, name, ids[name], target_of(name, http))
        clock.timed(started)
    return rows + ([unmeasured_row("built artifact", left, False)] if left else [])


def _built_function_rows(artifact: build.Built, name: str, logical_id: str, target_ms: int) -> list[Row]:
    function = artifact.function(logical_id)
    env = _lambda_environment(artifact, function)
    resolve = name in RESOLVE_FUNCTIONS
    shipped = _samples(artifact.python, function, env, *(["tracer"] if resolve else []))
    rows = [import_row(f"import {name}: built, {build.RUNTIME}, bytecode, tracing on", Imports.of(shipped),
                       target_ms)]  # fmt: skip
    if not resolve:
        return rows
    with tempfile.TemporaryDirectory() as empty:  # bytecode looked for there: none, compile all
        uncompiled = {**env, "PYTHONPYCACHEPREFIX": empty}
        without = Imports.of(_samples(artifact.python, function, uncompiled, runs=UNCOMPILED_RUNS))
    return [
        *rows,
        Row("cold start", f"import {name}: built, {build.RUNTIME}, bytecode ignored", without.median_cpu(),
            "ms CPU", note=f"what each cold start would compile without the bytecode; {without.wall()}"),
        Row("cold start", f"{name}: first traced invocation loads the tracer",
            statistics.median(s["tracer_ms"] for s in shipped), "ms",
            note="Powertools Tracer + X-Ray SDK (its recorder builds an X-Ray client) + botocore patch, "
                 "paid once per instance, after the import"),
    ]  # fmt: skip


def dev_rows(clock: Clock) -> list[Row]:
    _, http = template_functions()
    rows = []
    left = sorted(f for f in (REPO / "functions").iterdir() if (f / "app.py").is_file())
    while left and clock.fits():
        started, function = time.monotonic(), left.pop(0)
        rows.append(import_row(f"import {function.name} (dev tree)", measure(function),
                               target_of(function.name, http)))  # fmt: skip
        clock.timed(started)
    return rows + ([unmeasured_row("dev tree", [f.name for f in left], None)] if left else [])


def run() -> list[Row]:
    """The built artifact first (its rows carry the targets), then the dev tree, within the bound."""
    bound = bound_seconds(PLANS["cold_start"].bound_seconds)
    clock = Clock(bound - MARGIN_SECONDS)
    rows = built_rows(clock)
    dev_clock = Clock(clock.ends - time.monotonic())  # the dev tree's functions are shorter: its own longest
    return rows + dev_rows(dev_clock)


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
