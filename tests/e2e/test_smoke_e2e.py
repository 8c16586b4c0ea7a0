"""`make smoke` on the local stack (issue 27, item 4): the post-deploy smoke test, given no stack name,
checks a stack of its own, or the one running on the state directory, and passes every check: an
approval by its signed link, a signed webhook, a durable run, every alarm."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from local.stack_process import stack_environment
from tests.e2e.conftest import OWN_STACKS, REPO_ROOT, LocalStackHandle

pytestmark = pytest.mark.e2e

CHECKS = ("approval by signed link", "signed webhook", "durable function", "alarms")


def passed_checks(output: str) -> list[str]:
    return [
        name for name in CHECKS for line in output.splitlines() if line.strip().startswith(f"ok   {name}")
    ]


@OWN_STACKS
def test_make_smoke_without_a_stack_name_passes_on_a_local_stack_of_its_own(tmp_path: Path) -> None:
    # Given no local stack running on the state directory
    environment = {**stack_environment(tmp_path), "PATH": os.environ.get("PATH", "")}
    # When `make smoke` runs, as the README says, without a stack name
    smoke = subprocess.run(
        ["make", "--no-print-directory", "smoke"],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    # Then it started a stack of its own, passed every check and exited 0
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    assert "starting one of its own" in smoke.stdout
    assert passed_checks(smoke.stdout) == list(CHECKS), smoke.stdout
    assert "all passed" in smoke.stdout
    # And it stopped that stack: nothing holds the state directory
    assert not (tmp_path / "dev.pid").exists()


def test_smoke_checks_the_running_local_stack(local_stack: LocalStackHandle) -> None:
    # Given a running local stack; when `waitgate smoke` runs on its state directory
    smoke = subprocess.run(
        [sys.executable, "-m", "local", "smoke"],
        cwd=REPO_ROOT,
        env=local_stack.environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    # Then it checked that stack (no second one) and every check passed
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    assert "starting one of its own" not in smoke.stdout
    assert local_stack.api_url in smoke.stdout
    assert passed_checks(smoke.stdout) == list(CHECKS), smoke.stdout
