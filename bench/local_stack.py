"""A fresh local stack for one benchmark: `python -m local dev` in a subprocess, on free ports, with a
state directory of its own (`local.stack_process`, the starter the e2e tests use too), stopped on exit."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3

from local.stack_process import StackDidNotStartError, stack_environment, started_stack


class StackFailedError(RuntimeError):
    """The stack did not start, or a bench using it ran out of time."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class BenchStack:
    """`with BenchStack() as stack:` — the running stack, its local.json, clients, JWTs and HTTP."""

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        """`settings`: more of the stack's environment (WAITGATE_FAULTS, WAITGATE_RECONCILE_SECONDS)."""
        self.state_dir = Path(tempfile.mkdtemp(prefix="waitgate-bench-"))
        self.environment = {**stack_environment(self.state_dir), **(settings or {})}
        self.output: list[str] = []
        self.description: dict[str, Any] = {}
        self._issuer: Any = None
        self._stack = ExitStack()

    def __enter__(self) -> BenchStack:
        try:
            started = self._stack.enter_context(started_stack(self.state_dir, self.environment))
        except StackDidNotStartError as failed:
            self.__exit__()
            raise StackFailedError(str(failed)) from None
        self.output, self.description = started.output, started.description
        return self

    def __exit__(self, *_: object) -> None:
        self._stack.close()
        shutil.rmtree(self.state_dir, ignore_errors=True)

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

    def durable_lambdas(self) -> Any:
        """A Lambda client of the stack's durable endpoint (its executions and their histories)."""
        return boto3.client(
            "lambda",
            endpoint_url=self.description["durable"]["endpointUrl"],
            region_name=str(self.description["region"]),
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

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
        from local.standins.jwt_issuer import LocalIssuer, caller_claims
        from local.state.state_dir import StateDir

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
