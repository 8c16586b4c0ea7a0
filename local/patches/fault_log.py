"""What the local stack's fault injection did: `faults.jsonl` in the state directory, one line per fault
that struck (`local.patches.faults`), so a test can see that its fault was injected and a soak can
count the faults of each hop and time their heals.

A line: `{"at": "2026-12-03T10:00:00.123Z", "hop": "stream_record", "answer": "dropped", "runId": …,
"function": …, "operation": …}`; `runId` where the hop names it (a stream record's key, a schedule's
input, a notice's attributes) or the invocation that made the call is about one run (a run-surface
request's path, an expiry's input, a stream batch of one run's items: local.patches.invocation_logs),
`function` when a handler made the call, `execution` and `status` for a lost end event (the
execution's name: the run's id in the samples and the benches). Never a token or a body.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FAULT_LOG_NAME = "faults.jsonl"


def stamp(moment: datetime | None = None) -> str:
    """RFC 3339 in UTC with milliseconds, as the run events' `at`."""
    return (moment or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class FaultLog:
    """Appended by the stack (any thread), read by anyone; a torn last line is skipped."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    @classmethod
    def in_state_dir(cls, root: Path) -> FaultLog:
        return cls(root / FAULT_LOG_NAME)

    def record(self, hop: str, answer: str, **details: Any) -> None:
        line = {"at": stamp(), "hop": hop, "answer": answer}
        line.update({name: value for name, value in details.items() if value})
        with self._lock, self.path.open("a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")

    def entries(self) -> list[dict[str, Any]]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        found = []
        for line in lines:
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
        return found
