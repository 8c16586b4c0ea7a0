"""The `waitgate` command as a newcomer meets it: --version, --help, one-line errors with no stack,
and a dev-inbox that lists every notice the stack sent.

What needs no stack (help, usage errors, "no stack is running") runs the command's `main` in this
process (`run_in_process`); `--version` runs it as a process, as a newcomer does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from local.stack_process import free_port, stack_environment
from tests.e2e.conftest import REPO_ROOT, LocalStackHandle, run_in_process, run_local
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e

NEEDS_A_STACK = [
    ["dev-inbox"],
    ["dev-inbox", "--run-id", "release-42", "--json"],
    ["dev-metrics"],
    ["dev-jwt", "--sub", "alice"],
    ["directory", "list", "--group", "release"],
    ["directory", "add-member", "--group", "release", "--principal", "bob"],
    ["directory", "remove-member", "--role", "oncall", "--principal", "bob"],
    ["inbox-backfill", "--dry-run"],
    ["deliveries", "list"],
    ["deliveries", "redrive", "--all"],
    ["ledger", "export", "--tenant", "acme"],
]
HELPS = [
    [],
    ["dev"],
    ["dev-jwt"],
    ["dev-inbox"],
    ["dev-metrics"],
    ["directory"],
    ["directory", "add-member"],
    ["directory", "list"],
    ["inbox-backfill"],
    ["deliveries"],
    ["deliveries", "redrive"],
    ["smoke"],
    ["ledger"],
    ["ledger", "verify"],
]


def stopped_stack_dir(folder: Path) -> dict[str, str]:
    """The state directory a stopped stack leaves: local.json naming ports nobody listens on, and the
    pid file of a process that is gone."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    api, aws = f"http://127.0.0.1:{free_port()}", f"http://127.0.0.1:{free_port()}"
    (folder / "dev.pid").write_text(f"{gone.stdout.strip()} {api}\n", encoding="utf-8")
    description = {
        "apiUrl": api,
        "awsEndpointUrl": aws,
        "region": "us-east-1",
        "jwt": {"issuer": f"{api}/.local-issuer", "audience": "waitgate-local", "tenantClaim": "tenant"},
        "tableNames": {"DirectoryTable": "waitgate-local-DirectoryTable"},
        "inboxQueueUrl": f"{aws}/123456789012/waitgate-local-inbox",
    }
    (folder / "local.json").write_text(json.dumps(description), encoding="utf-8")
    return stack_environment(folder)


def test_version_is_the_package_version() -> None:
    # Given the package's version in pyproject.toml
    expected = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    # When `waitgate --version` runs, Then it prints it
    answer = run_local(["--version"], dict(os.environ))
    assert (answer.returncode, answer.stdout.strip()) == (0, f"waitgate {expected}")


@pytest.mark.parametrize("state", ["never started", "stopped"])
@pytest.mark.parametrize("command", NEEDS_A_STACK, ids=" ".join)
def test_a_command_with_no_stack_says_so_in_one_line(tmp_path: Path, command: list[str], state: str) -> None:
    # Given no local stack running for the state directory (none ever, or one that stopped)
    environment = stack_environment(tmp_path) if state == "never started" else stopped_stack_dir(tmp_path)
    # When a command that needs one runs
    answer = run_in_process(command, environment)
    # Then it exits 1 with one line that says so, and no traceback
    assert answer.returncode == 1
    assert answer.stdout == ""
    assert answer.stderr.count("\n") == 1 and "Traceback" not in answer.stderr, answer.stderr
    assert "no local stack is running" in answer.stderr and "waitgate dev" in answer.stderr


@pytest.mark.parametrize("command", HELPS, ids=lambda c: " ".join(c) or "waitgate")
def test_every_help_says_what_it_does_with_an_example(command: list[str]) -> None:
    # When --help is asked of a command
    answer = run_in_process([*command, "--help"], dict(os.environ))
    # Then it exits 0 and shows a description and one example of the command itself
    assert answer.returncode == 0, answer.stderr
    text = answer.stdout
    assert "example:\n  " in text
    example = text.split("example:\n", 1)[1].strip().splitlines()[0]
    assert f"waitgate {command[0]}" in example if command else "waitgate " in example
    assert len(text.split("\n\n")) >= 3, text  # usage, description, options at least


def test_the_top_help_and_dev_help_name_the_variables_and_defaults() -> None:
    for command in ([], ["dev"]):
        text = run_in_process([*command, "--help"], dict(os.environ)).stdout
        for variable, default in (("WAITGATE_PORT", "3000"), ("WAITGATE_AWS_PORT", "4566")):
            assert variable in text and f"(default {default})" in text
        assert "WAITGATE_STATE_DIR" in text and "(default .waitgate)" in text


@pytest.mark.parametrize(
    "command", [["no-such-command"], ["dev-jwt"], ["dev-inbox", "--json", "--link"], []], ids=" ".join
)
def test_a_usage_error_is_one_line_and_exit_1(command: list[str]) -> None:
    answer = run_in_process(command, dict(os.environ))
    assert answer.returncode == 1
    assert answer.stderr.count("\n") == 1 and "--help" in answer.stderr, answer.stderr


def notices(stack: LocalStackHandle, *filters: str) -> list[dict[str, Any]]:
    listed = run_local(["dev-inbox", "--json", *filters], stack.environment)
    return [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]


def test_dev_inbox_lists_all_of_25_notifications_and_finds_each(local_stack: LocalStackHandle) -> None:
    # Given 25 runs that each notified alice
    prefix = f"inbox-{uuid.uuid4().hex[:6]}"
    run_ids = [f"{prefix}-{number}" for number in range(25)]
    for run_id in run_ids:
        approval = {
            "kind": "approval",
            "key": "ship",
            "data": {
                "artifactId": run_id,
                "artifactType": "doc",
                "title": f"Ship {run_id}?",
                "actions": ["accept", "reject"],
                "approversList": ["alice"],
            },
        }
        local_stack.sfn.start_execution(
            stateMachineArn=local_stack.state_machines["interrupt"],
            name=run_id,
            input=json.dumps({"interrupt": approval}),
        )
    # When they have all been sent, Then `dev-inbox` lists all 25, oldest first
    listed = wait_for(
        lambda: (
            found if len(found := [n for n in notices(local_stack) if n["runId"] in run_ids]) == 25 else None
        ),
        what=lambda: "all 25 notices; " + _what_the_unlisted_runs_did(local_stack, run_ids),
    )
    assert [n["sentAt"] for n in listed] == sorted(n["sentAt"] for n in listed)
    # And `--run-id` finds each one, with its link
    with ThreadPoolExecutor(max_workers=4) as pool:
        lookups = list(pool.map(lambda run_id: notices(local_stack, "--run-id", run_id), run_ids))
    for run_id, found in zip(run_ids, lookups, strict=True):
        assert [(n["runId"], n["recipient"]) for n in found] == [(run_id, "alice")]
        assert found[0]["link"].startswith(local_stack.api_url + "/interrupts/ow2.")
    # And a lookup of a run that sent nothing says so in one line, exit 1
    missing = run_local(["dev-inbox", "--run-id", f"{prefix}-none", "--json"], local_stack.environment)
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == f"waitgate dev-inbox: no notification of run {prefix}-none yet\n"


def _what_the_unlisted_runs_did(local_stack: LocalStackHandle, run_ids: list[str]) -> str:
    """For each run without a notice: its execution's status and the events it has reached."""
    listed = {n["runId"] for n in notices(local_stack)}
    executions = local_stack.state_machines["interrupt"].replace(":stateMachine:", ":execution:")
    said = []
    for run_id in (r for r in run_ids if r not in listed):
        arn = f"{executions}:{run_id}"
        execution = local_stack.sfn.describe_execution(executionArn=arn)
        said.append(f"{run_id}: {execution['status']}, last events {local_stack.history_end(arn, 4)}")
    return "; ".join(said) or "every run has a notice now"


def test_dev_metrics_sums_up_what_a_decided_approval_emitted(local_stack: LocalStackHandle) -> None:
    # Given an approval of tenant acme, decided by alice over the run surface
    from tests.e2e.test_local_stack import RESUME_VALUE, resolve_path

    run_id = f"metrics-{uuid.uuid4().hex[:8]}"
    approval = {
        "kind": "approval",
        "key": "ship",
        "data": {"artifactId": run_id, "artifactType": "doc", "title": "Ship?", "actions": ["accept"]},
    }
    local_stack.sfn.start_execution(
        stateMachineArn=local_stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"tenantId": "acme", "interrupt": approval}),
    )
    node = {"pk": {"S": f"RUN#acme#{run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    table = local_stack.table_names["InterruptsTable"]
    wait_for(lambda: local_stack.dynamodb.get_item(TableName=table, Key=node).get("Item"))
    token = local_stack.jwt("alice", "approvals:respond", tenant="acme")
    answer = local_stack.http.post(resolve_path(run_id), {"resumeValue": RESUME_VALUE}, token=token)
    assert answer.status == 200, answer.body
    # When dev-metrics is asked for acme's lines
    listed = run_local(["dev-metrics", "--tenant", "acme", "--json"], local_stack.environment)
    documents = [json.loads(line) for line in listed.stdout.splitlines()]
    names = {m["Name"] for d in documents for m in d["_aws"]["CloudWatchMetrics"][0]["Metrics"]}
    # Then the request, the vote, the decision, its time and its delivery are there, as EMF documents
    assert {"InterruptsRequested", "Votes", "InterruptsResolved", "TimeToDecision", "Deliveries"} <= names
    assert all(d["tenantId"] == "acme" for d in documents)
    # And the summary sums them per dimensions, with the time's percentiles
    summary = run_local(["dev-metrics", "--tenant", "acme"], local_stack.environment).stdout
    lines = summary.splitlines()
    decided = [line for line in lines if line.startswith("InterruptsResolved")]
    assert any("kind=approval outcome=accept" in line for line in decided), summary
    (waited,) = [line for line in lines if line.startswith("TimeToDecision") and "kind=approval" in line]
    assert waited.rstrip().endswith("ms"), summary
