"""A fresh local stack for one benchmark: `python -m local dev` in a subprocess, on free ports, with a
state directory of its own (the approach of tests/e2e/conftest.py, without pytest), stopped on exit."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3

REPO_ROOT = Path(__file__).resolve().parents[1]
READY_PREFIX = "waitgate local stack ready: "
START_TIMEOUT_SECONDS = 90


class StackFailedError(RuntimeError):
    """The stack did not start, or a bench using it ran out of time."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class BenchStack:
    """`with BenchStack() as stack:` — the running stack, its local.json, clients, JWTs and HTTP."""

    def __init__(self) -> None:
        self.state_dir = Path(tempfile.mkdtemp(prefix="waitgate-bench-"))
        self.environment = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "WAITGATE_"))}
        self.environment.update(
            WAITGATE_STATE_DIR=str(self.state_dir),
            WAITGATE_PORT=str(free_port()),
            WAITGATE_AWS_PORT=str(free_port()),
            PYTHONUNBUFFERED="1",
        )
        self.output: list[str] = []
        self.process: subprocess.Popen[str] | None = None
        self.description: dict[str, Any] = {}
        self._issuer: Any = None

    def __enter__(self) -> BenchStack:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "local", "dev"],
            cwd=REPO_ROOT,
            env=self.environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        ready = threading.Event()
        threading.Thread(target=self._collect, args=(ready,), daemon=True).start()
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not ready.wait(0.2):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise StackFailedError("the local stack did not become ready:\n" + "".join(self.output[-40:]))
        self.description = json.loads((self.state_dir / "local.json").read_text(encoding="utf-8"))
        return self

    def __exit__(self, *_: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.state_dir, ignore_errors=True)

    def _collect(self, ready: threading.Event) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith(READY_PREFIX):
                ready.set()

    @property
    def api_url(self) -> str:
        return str(self.description["apiUrl"])

    @property
    def aws_endpoint_url(self) -> str:
        return str(self.description["awsEndpointUrl"])

    @property
    def table_name(self) -> str:
        return str(self.description["tableNames"]["InterruptsTable"])

    def state_machine(self, key: str = "interrupt") -> str:
        return str(self.description["stateMachines"][key])

    def client(self, service: str, **config: Any) -> Any:
        from botocore.config import Config

        return boto3.client(
            service,
            endpoint_url=self.aws_endpoint_url,
            region_name=str(self.description["region"]),
            aws_access_key_id="local",
            aws_secret_access_key="local",
            config=Config(max_pool_connections=64, retries={"max_attempts": 1}, **config),
        )

    def function_environment(self, logical_id: str = "ResolveByRunFunction") -> dict[str, str]:
        """The environment the stack gave its functions (every function reads the same one)."""
        lambdas = self.client("lambda")
        for page in lambdas.get_paginator("list_functions").paginate():
            for function in page["Functions"]:
                if function["FunctionName"].endswith(f"-{logical_id}"):
                    return dict(function.get("Environment", {}).get("Variables", {}))
        raise StackFailedError(f"no function {logical_id} in the local stack")

    def jwt(self, sub: str, scope: str) -> str:
        """A JWT from the stack's own issuer (what `waitgate dev-jwt` prints), without a subprocess."""
        from local.jwt_issuer import LocalIssuer, caller_claims
        from local.state_dir import StateDir

        if self._issuer is None:
            self._issuer = LocalIssuer.of_running_stack(StateDir(self.state_dir))
        tenant_claim = self.description.get("jwt", {}).get("tenantClaim", "tenant")
        token: str = self._issuer.mint(caller_claims(sub, scope, tenant_claim=tenant_claim))
        return token

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Answer:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.api_url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return Answer(response.status, response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read())


class Deadline:
    """A bench's time bound: `check()` raises with a clear message once it has passed."""

    def __init__(self, seconds: float, what: str) -> None:
        self.ends = time.monotonic() + seconds
        self.seconds = seconds
        self.what = what

    def check(self) -> None:
        if time.monotonic() > self.ends:
            raise StackFailedError(f"{self.what}: aborted after {self.seconds:.0f} s")
