"""What the local stack keeps across restarts (`state.json` in the state directory), and what not.

moto keeps everything in memory. The stack saves what a developer would miss after a restart (a
stop, a crash, a sleeping laptop that was restarted) and creates it again on the next start: the
tables' items (runs, interrupts, keys, the directory, idempotency records), the secrets (the signing
keys of the links already sent), the deadline schedules, the state machines created besides the
template's, and the executions that were still running, with their input. The inbox and the JWT
issuer key are files of their own in the same directory. `NOT_KEPT` is said at every start.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1
NOT_KEPT = (
    "finished executions (their runs are kept), durable functions' executions, messages in the stack's "
    "other queues, AWS resources you created yourself other than state machines"
)


class KeptStateUnreadableError(Exception):
    """state.json exists but cannot be read: the stack refuses to start rather than lose it."""


@dataclass
class KeptState:
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # logical id → items
    secrets: dict[str, str] = field(default_factory=dict)  # logical id → current SecretString
    schedules: list[dict[str, Any]] = field(default_factory=list)  # CreateSchedule arguments
    state_machines: list[dict[str, Any]] = field(default_factory=list)  # CreateStateMachine arguments
    executions: list[dict[str, Any]] = field(default_factory=list)  # {stateMachineArn, name, input}

    @classmethod
    def load(cls, path: Path) -> KeptState:
        """The state saved at `path`; empty when there is none."""
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as error:
            raise KeptStateUnreadableError(
                f"{path} cannot be read ({error}): move it away, or start empty with --fresh"
            ) from error
        if document.get("version") != FORMAT_VERSION:
            raise KeptStateUnreadableError(
                f"{path} was written by another version of the local stack: start empty with --fresh"
            )
        return cls(**{key: document.get(key, value) for key, value in asdict(cls()).items()})

    def write(self, path: Path) -> None:
        """Written whole, then renamed: a crash leaves the previous save, never half of one."""
        partial = path.with_suffix(".json.tmp")
        partial.write_text(json.dumps({"version": FORMAT_VERSION, **asdict(self)}), encoding="utf-8")
        partial.replace(path)

    @property
    def is_empty(self) -> bool:
        return not (any(self.tables.values()) or self.schedules or self.state_machines or self.executions)

    def summary(self) -> str:
        """`41 table items, 2 schedules, 1 waiting execution` (what a restore brings back)."""
        counts = [
            (sum(len(items) for items in self.tables.values()), "table item", "table items"),
            (len(self.secrets), "secret", "secrets"),
            (len(self.schedules), "schedule", "schedules"),
            (len(self.state_machines), "state machine of your own", "state machines of your own"),
            (len(self.executions), "waiting execution", "waiting executions"),
        ]
        return ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in counts if n)


def start_line(where: str, kept: KeptState, fresh: bool, notices: int) -> str:
    """The one line a start says about the state it found, and what a restart does not keep."""
    restored = re.sub(r"(waiting executions?)", r"\1 (started again)", kept.summary())
    if notices:
        restored += f"{', ' if restored else ''}{notices} {'notice' if notices == 1 else 'notices'}"
    if fresh:
        found = "starting empty (--fresh)"
    else:
        found = f"restored {restored}" if restored else "starting empty (nothing kept yet)"
    return f"state kept in {where}: {found}; not kept across restarts: {NOT_KEPT} (docs/local-stack.md)"
