"""Cold start: the median over 10 fresh Python processes of importing each function's handler (what
Lambda's init phase pays for our code), from the dev tree under this Python, and — for the resolve and
inspect handlers and the request's — from the `sam build` artifact under the runtime's Python (3.13) as
Lambda runs it: bytecode shipped, /opt and /var/task read-only (nothing written), tracing on (a Lambda
environment with a trace header: the X-Ray SDK still loads only on the first invocation, whose cost
is its own row). Beside them, the same artifact with its bytecode ignored: what every cold start
would compile without it (docs/performance.md, "Bytecode")."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import built as build
from bench.report import Row

REPO = Path(__file__).resolve().parents[1]
RUNS = 10
IMPORT_TARGET_MS = 200
RESOLVE_FUNCTIONS = {"resolve_by_run", "resolve_by_token", "inspect_by_token"}
BUILT_FUNCTIONS = {**dict.fromkeys(RESOLVE_FUNCTIONS), "request_interrupt": None}
TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"

PROBE = r"""
import importlib.util, json, os, sys, time
started = time.perf_counter()
spec = importlib.util.spec_from_file_location("handler_under_test", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
imported = time.perf_counter()
answer = {"import_ms": (imported - started) * 1000}
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


def measure(function: Path) -> float:
    env = {**_environment(f"{REPO}:{REPO / 'layers/waitgate'}"), "PYTHONDONTWRITEBYTECODE": "0"}
    return statistics.median(sample["import_ms"] for sample in _samples(sys.executable, function, env))


def _samples(python: str, function: Path, env: dict[str, str], *extra: str) -> list[dict[str, float]]:
    samples = []
    for _ in range(RUNS):
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


def logical_ids() -> dict[str, str]:
    """functions/<name>/ → the template's logical id of that function."""
    from local.template.sam_template import load_template

    found = {}
    for logical_id, resource in load_template()["Resources"].items():
        code = resource.get("Properties", {}).get("CodeUri", "")
        if resource["Type"] == "AWS::Serverless::Function" and code.startswith("functions/"):
            found[code.strip("/").split("/")[1]] = logical_id
    return found


def built_rows() -> list[Row]:
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
    ids = logical_ids()
    for name in sorted(BUILT_FUNCTIONS):
        function = artifact.function(ids[name])
        env = _lambda_environment(artifact, function)
        shipped = _samples(artifact.python, function, env, "tracer")
        with tempfile.TemporaryDirectory() as empty:  # bytecode looked for there: none, compile all
            without = _samples(artifact.python, function, {**env, "PYTHONPYCACHEPREFIX": empty})
        imported = statistics.median(s["import_ms"] for s in shipped)
        held = name in RESOLVE_FUNCTIONS
        target, met = (f"≤ {IMPORT_TARGET_MS} ms", imported <= IMPORT_TARGET_MS) if held else ("", None)
        rows += [
            Row("cold start", f"import {name}: built, {build.RUNTIME}, bytecode, tracing on", imported, "ms",
                target, met),
            Row("cold start", f"import {name}: built, {build.RUNTIME}, bytecode ignored",
                statistics.median(s["import_ms"] for s in without), "ms",
                note="what each cold start would compile without the shipped bytecode"),
            Row("cold start", f"{name}: first traced invocation loads the tracer",
                statistics.median(s["tracer_ms"] for s in shipped), "ms",
                note="Powertools Tracer + X-Ray SDK (its recorder builds an X-Ray client) + botocore patch, "
                     "paid once per instance, after the import"),
        ]  # fmt: skip
    return rows


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
                f"import {function.name} (dev tree, median of {RUNS} processes)",
                median,
                "ms",
                f"≤ {IMPORT_TARGET_MS} ms" if is_resolve else "",
                median <= IMPORT_TARGET_MS if is_resolve else None,
            )
        )
    return rows + built_rows()


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
