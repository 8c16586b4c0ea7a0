"""The Durable Execution testing SDK's local server, `dex-local-runner start-server`, as a child
process of the stack: it keeps the durable executions (in memory: a restart forgets them), answers
their checkpoints and callbacks, and invokes the functions at the stack's durable endpoint."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

logger = logging.getLogger(__name__)
READY_SECONDS = 30
STOP_SECONDS = 10


class DurableRunnerError(RuntimeError):
    """The runner did not come up."""


class DurableRunnerExitedError(DurableRunnerError):
    """The runner ended while starting (its port taken since it was found free, among other causes)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class DurableRunner:
    def __init__(self, port: int, lambda_endpoint: str, region: str) -> None:
        self.port, self._lambda_endpoint, self._region = port, lambda_endpoint, region
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [
            str(Path(sys.executable).with_name("dex-local-runner")),
            "start-server",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--lambda-endpoint",
            self._lambda_endpoint,
            "--local-runner-region",
            self._region,
            "--store-type",
            "memory",
            "--log-level",
            "ERROR",  # its warnings may name a callback id, a secret
        ]
        # The runner signs its invokes like any boto3 client: local credentials when none are set.
        environment = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", **os.environ}
        self._process = subprocess.Popen(  # noqa: S603 - our own virtualenv's tool
            command, stdin=subprocess.DEVNULL, env=environment
        )
        self._wait_until_healthy()

    def _wait_until_healthy(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                raise DurableRunnerExitedError(f"dex-local-runner exited with {self._process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=1):  # noqa: S310 - 127.0.0.1
                    return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise DurableRunnerError(f"dex-local-runner did not answer on {self.url} within {READY_SECONDS} s")

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=STOP_SECONDS)
        self._process = None
