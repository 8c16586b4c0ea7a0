"""One local stack per state directory: a pid file, and a check that its owner still answers."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import Any

from local.state.state_dir import StateDir


class NoRunningStackError(Exception):
    """No live `waitgate dev` holds this state directory (or it is still starting)."""


class AlreadyRunningError(Exception):
    """Another live `waitgate dev` owns this state directory."""

    def __init__(self, pid: int, api_url: str) -> None:
        super().__init__(f"a waitgate local stack is already running (pid {pid}) at {api_url}")
        self.pid = pid
        self.api_url = api_url


@dataclass
class PidFile:
    """The claim of one process on a state directory."""

    state_dir: StateDir

    def claim(self, api_url: str) -> None:
        """Write our pid and URL, refusing if a live stack holds the directory (a stale file,
        whose process is gone or no longer answers, is removed)."""
        self.state_dir.ensure()
        holder = self._read()
        if holder is not None and holder[0] != os.getpid():
            pid, holder_url = holder
            if _is_alive(pid) and _answers(holder_url):
                raise AlreadyRunningError(pid, holder_url)
            self.state_dir.pid_file.unlink(missing_ok=True)
        self.state_dir.pid_file.write_text(f"{os.getpid()} {api_url}\n", encoding="utf-8")

    def release(self) -> None:
        holder = self._read()
        if holder is not None and holder[0] == os.getpid():
            self.state_dir.pid_file.unlink(missing_ok=True)

    def holder(self) -> tuple[int, str] | None:
        """The pid and API URL of the live stack that holds the directory, or None."""
        holder = self._read()
        return holder if holder is not None and _is_alive(holder[0]) else None

    def _read(self) -> tuple[int, str] | None:
        try:
            pid, _, api_url = self.state_dir.pid_file.read_text(encoding="utf-8").partition(" ")
            return int(pid), api_url.strip()
        except (OSError, ValueError):
            return None


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _answers(url: str) -> bool:
    """Whether something accepts connections at the host and port of `url`."""
    host_port = url.split("://", 1)[-1].split("/", 1)[0]
    host, _, port = host_port.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=1):
            return True
    except (OSError, ValueError):
        return False


def running_stack_description(state_dir: StateDir) -> dict[str, Any]:
    """local.json of the live stack that owns `state_dir`; NoRunningStackError when none answers."""
    holder = PidFile(state_dir).holder()
    if holder is None:
        raise NoRunningStackError(
            f"no local stack is running for {state_dir.root} (start one with: waitgate dev)"
        )
    description = state_dir.read_local_json()
    if description is None or not _answers(holder[1]):
        raise NoRunningStackError(f"the local stack (pid {holder[0]}) is starting: try again in a moment")
    return description
