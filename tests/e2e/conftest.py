"""The local stack, started once per test session as `python -m local dev` in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
READY_PREFIX = "waitgate local stack ready: "
START_TIMEOUT_SECONDS = 60


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

    def jwt(self, sub: str, scopes: str = "", tenant: str | None = None, **options: str) -> str:
        """A token minted by `waitgate dev-jwt` itself (options: groups, roles, ttl)."""
        arguments = ["--sub", sub, "--scope", scopes]
        if tenant is not None:
            arguments += ["--tenant", tenant]
        for name, value in options.items():
            arguments += [f"--{name}", str(value)]
        return run_local(["dev-jwt", *arguments], self.environment).stdout.strip()


def run_local(arguments: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "local", *arguments],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stack_environment(state_dir: Path) -> dict[str, str]:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("AWS_", "WAITGATE_"))
    }
    environment.update(
        WAITGATE_STATE_DIR=str(state_dir),
        WAITGATE_PORT=str(free_port()),
        WAITGATE_AWS_PORT=str(free_port()),
        PYTHONUNBUFFERED="1",
    )
    return environment


def _collect(stream: Any, lines: list[str], ready: threading.Event) -> None:
    for line in stream:
        lines.append(line)
        if line.startswith(READY_PREFIX):
            ready.set()


def wait_until_ready(process: subprocess.Popen[str], output: list[str]) -> None:
    ready = threading.Event()
    threading.Thread(target=_collect, args=(process.stdout, output, ready), daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not ready.wait(0.2):
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            pytest.fail("the local stack did not become ready:\n" + "".join(output))


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def running_stack(
    state_dir: Path, environment: dict[str, str] | None = None, arguments: tuple[str, ...] = ()
) -> Iterator[LocalStackHandle]:
    """`python -m local dev` with its own state dir, until the block ends (stopped with SIGINT); on
    free ports unless `environment` (of an earlier stack, say: then on the same ports)."""
    environment = environment or stack_environment(state_dir)
    process = subprocess.Popen(
        [sys.executable, "-m", "local", "dev", *arguments],
        cwd=REPO_ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    try:
        wait_until_ready(process, output)
        description = json.loads((state_dir / "local.json").read_text(encoding="utf-8"))
        yield LocalStackHandle(description, state_dir, environment, output, process)
    finally:
        stop(process)


@pytest.fixture(scope="session")
def local_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStackHandle]:
    with running_stack(tmp_path_factory.mktemp("waitgate-state")) as stack:
        yield stack
