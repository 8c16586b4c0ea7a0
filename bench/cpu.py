"""Per-request CPU with in-memory ports: payload validation, and the whole resolve use case (no I/O)."""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from bench.report import Row, median_seconds

APPROVAL: dict[str, Any] = {
    "kind": "approval",
    "key": "release-42",
    "data": {
        "artifactId": "r42",
        "artifactType": "release",
        "title": "Ship release 42?",
        "artifact": {"version": "4.2.0", "changes": 37},
        "actions": ["accept", "reject", "refine", "edit-accept", "ask"],
        "requiredApprovals": 1,
        "approversList": ["alice", "bob"],
    },
}


def _validation_rows() -> list[Row]:
    import jsonschema
    from aws_lambda_powertools.utilities.validation import validate as powertools_validate

    from waitgate.payloads import parse_interrupt_payload
    from waitgate.schemas import suspend_request_schema

    schema = dict(suspend_request_schema())
    handlers = {"https": _offline_metaschema, "http": _offline_metaschema}
    ours = median_seconds(lambda: parse_interrupt_payload(APPROVAL), number=2000) * 1e6
    plain = median_seconds(lambda: jsonschema.validate(APPROVAL, schema), repeat=5, number=50) * 1e6
    powertools = (
        median_seconds(
            lambda: powertools_validate(event=APPROVAL, schema=schema, handlers=handlers), repeat=5, number=50
        )
        * 1e6
    )
    return [
        Row("cpu", "payload validation: waitgate (pydantic, built once)", ours, "µs", "≤ 20 µs", ours <= 20),
        Row(
            "cpu",
            "payload validation: jsonschema.validate (per call)",
            plain,
            "µs",
            "anchor",
            note=f"ratio {plain / ours:.0f}× ours",
        ),
        Row(
            "cpu",
            "payload validation: Powertools validate",
            powertools,
            "µs",
            "anchor",
            note=f"ratio {powertools / ours:.0f}× ours",
        ),
    ]


def _offline_metaschema(uri: str) -> Any:
    """fastjsonschema would fetch the 2020-12 metaschema from the network; this machine has none."""
    from jsonschema_specifications import REGISTRY

    return REGISTRY.contents(uri)


def _resolve_row() -> Row:
    from tests.fakes.memory import CountingIds, FixedClock, MemoryStore, RecordingWorkflow
    from waitgate.run.identity import Caller
    from waitgate.run.records import RunRef
    from waitgate.service.request_interrupt import InterruptRequest, RequestDependencies, request_interrupt
    from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_interrupt

    store, workflow, clock, ids = MemoryStore(), RecordingWorkflow(), FixedClock(), CountingIds()
    alice = Caller(principal="alice", tenant_id="default", via="jwt")
    value = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
    samples = []
    for batch in range(7):
        runs = [RunRef("default", f"run-{batch}-{n}") for n in range(300)]
        for run in runs:
            request_interrupt(
                InterruptRequest("task", run, "Gate", json.loads(json.dumps(APPROVAL))),
                RequestDependencies(store, workflow, clock, ids),
            )
        started = time.perf_counter()
        for run in runs:
            resolve_interrupt(
                ResolveCommand(run=run, node_id="Gate", resume_value=value, caller=alice),
                ResolveDependencies(store, workflow, clock),
            )
        samples.append((time.perf_counter() - started) / len(runs))
    resolve_ms = statistics.median(samples) * 1e3
    return Row(
        "cpu", "resolve use case, in-memory ports (no I/O)", resolve_ms, "ms", "≤ 0.5 ms", resolve_ms <= 0.5
    )


def run() -> list[Row]:
    return [*_validation_rows(), _resolve_row()]
