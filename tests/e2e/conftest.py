"""The local stack, started once per test session as `python -m local dev` in a subprocess."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import pytest

from local.cli.dev_jwt import dev_jwt
from local.patches import strict_requests
from local.stack_process import StackDidNotStartError, StackProcess, restart, stack_environment, started_stack
from local.state.state_dir import StateDir

REPO_ROOT = Path(__file__).resolve().parents[2]
strict_requests.install()  # the tests' own AWS calls are checked as the stack checks its own

# `make e2e` runs these tests on xdist workers (`--dist loadgroup`), each worker with a session stack of
# its own (`local_stack`). A group's tests run on one worker, one after another: the tests that start
# stacks of their own (so one such stack at a time starts beside the workers' stacks), the docs'
# walk-throughs (on one docs stack) and the browser tests (on one pair of browsers).
OWN_STACKS = pytest.mark.xdist_group("own-stacks")  # honoured through the hook below
DOCS_STACK = pytest.mark.xdist_group("docs-stack")
BROWSERS = pytest.mark.xdist_group("browsers")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--dist loadgroup` groups tests by the `@group` suffix of their node ids, which pytest-xdist 3.8
    adds by setting `item._nodeid`; pytest 9.2 keeps a node's id in `item._id`, so that suffix never
    appeared and every group's tests were spread over both workers (each worker started its own docs
    stack, browsers and shared stacks). Here the suffix is set where pytest 9.2 reads it, unless xdist
    set it already."""
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import coerce_node_id  # pytest 9.2's own, private: pinned in requirements.lock

    for item in items:
        names = {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix):
            item._id = coerce_node_id(item.nodeid + suffix)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class HttpAnswer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class HttpClient:
    """A tiny stdlib client for the stack's API: never raises on an HTTP error status."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def request(
        self,
        method: str,
        path: str,
        json_body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        data: bytes | None = None,
    ) -> HttpAnswer:
        sent = dict(headers or {})
        if json_body is not None:
            data = json.dumps(json_body).encode()
            sent.setdefault("Content-Type", "application/json")
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base_url + path, data=data, headers=sent, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return HttpAnswer(response.status, _lower(response.headers.items()), response.read())
        except urllib.error.HTTPError as error:
            return HttpAnswer(error.code, _lower(error.headers.items()), error.read())

    def get(self, path: str, **options: Any) -> HttpAnswer:
        return self.request("GET", path, **options)

    def post(self, path: str, json_body: Any = None, **options: Any) -> HttpAnswer:
        return self.request("POST", path, json_body=json_body, **options)


def _lower(items: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in items}


@dataclass
class LocalStackHandle:
    """What a test needs of the running stack: its local.json, clients, tokens and HTTP."""

    description: dict[str, Any]
    state_dir: Path
    environment: dict[str, str]
    output: list[str] = field(default_factory=list)
    process: subprocess.Popen[str] | None = None
    started: StackProcess | None = None  # the stack this handle started, for `restart`

    def restart(self, while_stopped: Callable[[], None] | None = None) -> None:
        """Stop the stack (as Ctrl-C does) and start it again on the same state directory and ports,
        while its runs are in flight (local.stack_process.restart); `while_stopped` runs in between."""
        assert self.started is not None, "only a stack this handle started restarts"
        restart(self.started, while_stopped)
        self.description, self.process = self.started.description, self.started.process

    @property
    def api_url(self) -> str:
        return str(self.description["apiUrl"])

    @property
    def aws_endpoint_url(self) -> str:
        return str(self.description["awsEndpointUrl"])

    @property
    def region(self) -> str:
        return str(self.description["region"])

    @property
    def state_machines(self) -> dict[str, str]:
        return dict(self.description["stateMachines"])

    @property
    def table_names(self) -> dict[str, str]:
        return dict(self.description["tableNames"])

    @property
    def http(self) -> HttpClient:
        return HttpClient(self.api_url)

    def client(self, service: str) -> Any:
        return boto3.client(
            service,
            endpoint_url=self.aws_endpoint_url,
            region_name=self.region,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

    @property
    def sfn(self) -> Any:
        return self.client("stepfunctions")

    @property
    def dynamodb(self) -> Any:
        return self.client("dynamodb")

    def history_end(self, execution_arn: str, count: int = 5) -> list[str]:
        """The types of an execution's last `count` history events: what a timed-out wait reports."""
        events = self.sfn.get_execution_history(executionArn=execution_arn, maxResults=1000)["events"]
        return [event["type"] for event in events[-count:]]

    def jwt(
        self, sub: str, scopes: str = "", tenant: str | None = None, groups: str = "", roles: str = ""
    ) -> str:
        """A token as `waitgate dev-jwt` mints it (its own function, in this process: a test asks for
        many, each process would cost a start; groups and roles comma-separated, as its flags take them).
        What the command prints is test_local_stack.py's `test_dev_jwt_output_is_accepted`."""
        return dev_jwt(StateDir(self.state_dir), sub, scopes, tenant, _listed(groups), _listed(roles))


def _listed(comma_separated: str) -> list[str]:
    return [item for item in comma_separated.split(",") if item]


def run_local(arguments: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`python -m local ARGUMENTS` (which is `waitgate ARGUMENTS`) as a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "local", *arguments],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_in_process(arguments: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`waitgate ARGUMENTS` in this process: the command's own `main`, with `environment` as the
    process's environment while it runs and its output and exit code caught, as `run_local` would
    have them. For the commands that need no stack (help, usage errors, "no stack is running"): the
    same code without an interpreter's start each time. Not for use from more than one thread."""
    from local.cli.main import main

    saved = dict(os.environ)
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        os.environ.clear()
        os.environ.update(environment)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                code = main(arguments)
            except SystemExit as exit_:  # argparse's --help, --version and usage errors
                code = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(arguments, code, stdout.getvalue(), stderr.getvalue())


@contextmanager
def running_stack(
    state_dir: Path, environment: dict[str, str] | None = None, arguments: tuple[str, ...] = ()
) -> Iterator[LocalStackHandle]:
    """`python -m local dev` with its own state dir, until the block ends (`local.stack_process`, the
    one starter); on free ports unless `environment` (of an earlier stack, say: then on the same ports)."""
    try:
        with started_stack(state_dir, environment, arguments) as started:
            yield LocalStackHandle(
                started.description, state_dir, started.environment, started.output, started.process, started
            )
    except StackDidNotStartError as failed:
        pytest.fail(str(failed))


STACK_LINES_ON_FAILURE = 300


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test that used the session's stack shows the stack's last lines in its report: a
    failure under load is read from what the stack did, not guessed at."""
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    for name, value in getattr(item, "funcargs", {}).items():
        if isinstance(value, LocalStackHandle):
            lines = value.output[-STACK_LINES_ON_FAILURE:]
            report.sections.append((f"{name}: the local stack's last lines", "".join(lines)))


@pytest.fixture(scope="session")
def local_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStackHandle]:
    with running_stack(tmp_path_factory.mktemp("waitgate-state")) as stack:
        yield stack


@pytest.fixture(scope="session")
def reconciling_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStackHandle]:
    """A stack whose reconciler passes every second (WAITGATE_RECONCILE_SECONDS=1, the grace too), so a
    heal takes seconds: one for the modules that need that setting (test_hop_faults_e2e.py,
    test_reconciler_e2e.py, both OWN_STACKS so on one worker), not one each."""
    state_dir: Path = tmp_path_factory.mktemp("waitgate-reconciling")
    environment = {**stack_environment(state_dir), "WAITGATE_RECONCILE_SECONDS": "1"}
    with running_stack(state_dir, environment) as stack:
        yield stack


REFUSED_LINE = "AWS would refuse"  # local.patches.strict_requests: a call the stack made that AWS refuses


@pytest.fixture(autouse=True)
def refuses_what_aws_refuses(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test fails when it, or the stack while it ran, made a call AWS would refuse."""
    stack = request.getfixturevalue("local_stack") if "local_stack" in request.fixturenames else None
    seen = len(stack.output) if stack is not None else 0
    strict_requests.TALLY.take()
    yield
    refused = [str(violation) for violation in strict_requests.TALLY.take()]
    if stack is not None:
        refused += [line.strip() for line in stack.output[seen:] if REFUSED_LINE in line]
    assert not refused, "AWS would refuse: " + "; ".join(refused)
