"""The local stack as a child process: `python -m local dev` on free ports with a state directory of
its own, until the block ends. The one starter of the e2e tests, the docs check and the benchmarks."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local.cli.dev import READY_LINE

REPO_ROOT = Path(__file__).resolve().parents[1]
READY_PREFIX = READY_LINE.split("{", 1)[0]
START_TIMEOUT_SECONDS = 300  # as tests/e2e/waiting.py's bound: on a loaded machine a start takes minutes
STOP_TIMEOUT_SECONDS = 15
PORT_ATTEMPTS = 3
PORT_REFUSAL = "is in use by another program"  # local.standins.held_ports' refusal (and werkzeug's)
PASSED_THROUGH = ("WAITGATE_MODEL_CHECK_TALLY",)  # `make test`'s count of the calls the model check saw


class StackDidNotStartError(RuntimeError):
    """The child exited, or printed no ready line in time; the message ends with what it printed."""


@dataclass
class StackProcess:
    """A started stack: its local.json, the environment it runs with, and what it has printed (every
    start's lines, when it was restarted)."""

    description: dict[str, Any]
    state_dir: Path
    environment: dict[str, str]
    output: list[str]
    process: subprocess.Popen[str]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stack_environment(state_dir: Path) -> dict[str, str]:
    """This environment without AWS or waitgate settings, on two free ports, with its own state."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("AWS_", "WAITGATE_")) or key in PASSED_THROUGH
    }
    environment.update(
        WAITGATE_STATE_DIR=str(state_dir),
        WAITGATE_PORT=str(free_port()),
        WAITGATE_AWS_PORT=str(free_port()),
        PYTHONUNBUFFERED="1",
    )
    return environment


@contextmanager
def started_stack(
    state_dir: Path, environment: dict[str, str] | None = None, arguments: tuple[str, ...] = ()
) -> Iterator[StackProcess]:
    """`python -m local dev [arguments]` until the block ends (stopped with SIGINT, killed if it hangs);
    on free ports unless `environment` (an earlier stack's, say: then on its ports)."""
    started = _start_on_free_ports(state_dir, dict(environment or stack_environment(state_dir)), arguments)
    try:
        yield started
    finally:
        stop(started.process)


def restart(started: StackProcess, while_stopped: Callable[[], None] | None = None) -> StackProcess:
    """Stop the stack as Ctrl-C does (it saves its state) and start it again on the same state
    directory and ports, while its runs are in flight: `started` then describes the new process (its
    lines follow the old ones' in `output`). `while_stopped` runs between the two (a test changes the
    state directory there: its faults file, say)."""
    stop(started.process)
    if while_stopped is not None:
        while_stopped()
    _wait_until_bindable(_ports(started.environment))
    again = _start(started.state_dir, started.environment, (), started.output)
    started.description, started.process = again.description, again.process
    return started


def _start_on_free_ports(
    state_dir: Path, environment: dict[str, str], arguments: tuple[str, ...]
) -> StackProcess:
    """The stack started; if a port found free was taken before the stack claimed it (the stack says
    so and stops before it does anything: local.standins.held_ports), on two others found free now."""
    output: list[str] = []  # every attempt's lines
    for attempt in range(1, PORT_ATTEMPTS + 1):
        seen = len(output)
        try:
            return _start(state_dir, environment, arguments, output)
        except StackDidNotStartError:
            if attempt == PORT_ATTEMPTS or not any(PORT_REFUSAL in line for line in output[seen:]):
                raise
            environment.update(WAITGATE_PORT=str(free_port()), WAITGATE_AWS_PORT=str(free_port()))
    raise AssertionError("unreachable")


def _ports(environment: dict[str, str]) -> list[int]:
    return [int(environment[name]) for name in ("WAITGATE_PORT", "WAITGATE_AWS_PORT") if name in environment]


def _wait_until_bindable(ports: list[int]) -> None:
    """Until each port can be bound: a restart keeps its ports (its links name them), and between the
    stop and the start another program's socket may sit on one for a moment (an outgoing connection's
    ephemeral port, say)."""
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not all(_bindable(port) for port in ports):
        if time.monotonic() > deadline:
            raise StackDidNotStartError(f"the local stack's ports {ports} stayed in use after it stopped")
        time.sleep(0.1)


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the stack binds them
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _start(
    state_dir: Path, environment: dict[str, str], arguments: tuple[str, ...], output: list[str]
) -> StackProcess:
    process = subprocess.Popen(  # noqa: S603 - this interpreter running this repository's own module
        [sys.executable, "-m", "local", "dev", *arguments],
        cwd=REPO_ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        _wait_until_ready(process, output)
        description = json.loads((state_dir / "local.json").read_text(encoding="utf-8"))
    except BaseException:
        stop(process)
        raise
    return StackProcess(description, state_dir, environment, output, process)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_ready(process: subprocess.Popen[str], output: list[str]) -> None:
    ready = threading.Event()
    collector = threading.Thread(target=_collect, args=(process.stdout, output, ready), daemon=True)
    collector.start()
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not ready.wait(0.2):
        if process.poll() is not None or time.monotonic() > deadline:
            if process.poll() is not None:
                collector.join(timeout=STOP_TIMEOUT_SECONDS)  # its last lines: why it exited
            raise StackDidNotStartError("the local stack did not become ready:\n" + "".join(output[-60:]))


def _collect(stream: Any, lines: list[str], ready: threading.Event) -> None:
    for line in stream:
        lines.append(line)
        if line.startswith(READY_PREFIX):
            ready.set()
