"""The handlers are deployed without the local stack: nothing in functions/ may import `local`
(import-linter holds the layer's own contracts; functions/ is not a package it can see). And the
public Slack function, which Slack gives 3 seconds a cold start included, imports nothing of the
decision it hands to the Slack decider."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FUNCTIONS = Path(__file__).resolve().parents[3] / "functions"


def imported_roots(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("handler", sorted(FUNCTIONS.glob("*/app.py")), ids=lambda p: p.parent.name)
def test_a_handler_never_imports_the_local_stack(handler: Path) -> None:
    # Given a function's handler / Then it imports only what Lambda will have: no `local`, no tests
    assert not imported_roots(handler) & {"local", "tests", "bench"}


# What Slack's 3 seconds cannot pay for at a cold start (bench/slack_ack.py measures what it does pay)
NOT_FOR_THE_SLACK_ACKNOWLEDGEMENT = (
    "waitgate.service.resolve_interrupt",  # the resolve path is the decider's
    "waitgate.service.slack_interaction",
    "waitgate.wiring.composition",
    "waitgate.wiring.channel_composition",
    "waitgate.wiring.settings",
    "pydantic",  # the settings model's
    "slack_sdk",  # its signature module loads the whole Web API client
    "aws_lambda_powertools.event_handler",  # the resolver
    "boto3",  # loaded with the first client, not at import
)


def test_the_slack_acknowledgement_imports_nothing_of_the_decision() -> None:
    # Given a fresh interpreter that imports the public Slack function as Lambda would
    probe = (
        "import importlib.util, json, sys\n"
        "spec = importlib.util.spec_from_file_location('app', sys.argv[1])\n"
        "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    environment = {
        **os.environ,
        "PYTHONPATH": str(FUNCTIONS.parent / "layers" / "waitgate"),
        "AWS_DEFAULT_REGION": "us-east-1",
        "POWERTOOLS_SERVICE_NAME": "waitgate",
    }
    answer = subprocess.run(
        [sys.executable, "-c", probe, str(FUNCTIONS / "slack_interactions" / "app.py")],
        env=environment, check=True, capture_output=True, text=True,
    )  # fmt: skip
    loaded = set(json.loads(answer.stdout.splitlines()[-1]))
    # Then none of the decision's modules, nor the heavy libraries it uses, is loaded
    assert not {
        module
        for module in loaded
        for heavy in NOT_FOR_THE_SLACK_ACKNOWLEDGEMENT
        if module == heavy or module.startswith(f"{heavy}.")
    }


def http_functions() -> list[str]:
    """The functions the HTTP API invokes (an HttpApi event in template.yaml)."""
    from local.template.sam_template import load_template

    found = []
    for resource in load_template()["Resources"].values():
        properties = resource.get("Properties", {})
        http = any(e.get("Type") == "HttpApi" for e in (properties.get("Events") or {}).values())
        if resource["Type"] == "AWS::Serverless::Function" and http:
            found.append(properties["CodeUri"].strip("/").split("/")[1])
    return sorted(found)


# What an HTTP function's cold start does not pay for (docs/performance.md, "Cold start as deployed")
NOT_AT_AN_HTTP_COLD_START = (
    "aws_lambda_powertools.event_handler",  # every resolver and event class: waitgate.http.router routes
    "pydantic",  # the settings are a dataclass; payload and OpenAPI models load with their first use
)


def loaded_by_import(function: str) -> set[str]:
    """The modules a fresh interpreter holds once it has imported the function's handler as Lambda would."""
    probe = (
        "import importlib.util, json, sys\n"
        "spec = importlib.util.spec_from_file_location('app', sys.argv[1])\n"
        "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    environment = {
        **os.environ,
        "PYTHONPATH": f"{FUNCTIONS / function}:{FUNCTIONS.parent / 'layers' / 'waitgate'}",
        "AWS_DEFAULT_REGION": "us-east-1",
        "POWERTOOLS_SERVICE_NAME": "waitgate",
        "TABLE_NAME": "interrupts",
    }
    answer = subprocess.run(
        [sys.executable, "-c", probe, str(FUNCTIONS / function / "app.py")],
        env=environment, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return set(json.loads(answer.stdout.splitlines()[-1]))


def among(loaded: set[str], heavy: tuple[str, ...]) -> set[str]:
    return {m for m in loaded for h in heavy if m == h or m.startswith(f"{h}.")}


@pytest.mark.parametrize("function", http_functions())
def test_an_http_function_imports_neither_the_powertools_resolver_nor_pydantic(function: str) -> None:
    # Given a fresh interpreter that imports an HTTP function's handler as Lambda would
    loaded = loaded_by_import(function)
    # Then neither is loaded
    assert not among(loaded, NOT_AT_AN_HTTP_COLD_START)


# The workflow's steps check their event with pydantic models, built by the first event, not at import
# (waitgate.run.workflow_event_models, waitgate.service.decision_event, waitgate.payloads.interrupt)
MODELS_AT_THE_FIRST_EVENT = ("request_interrupt", "record_decision")


@pytest.mark.parametrize("function", MODELS_AT_THE_FIRST_EVENT)
def test_a_workflow_step_builds_its_event_models_at_its_first_event(function: str) -> None:
    # Given a fresh interpreter that imports the Step Functions task's handler as Lambda would
    loaded = loaded_by_import(function)
    # Then no pydantic, and none of the models its first event is checked with, is loaded yet
    assert not among(loaded, ("pydantic", "waitgate.run.workflow_event_models",
                              "waitgate.service.decision_event", "waitgate.payloads.interrupt"))  # fmt: skip
