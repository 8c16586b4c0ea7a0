"""What `waitgate dev` prints of its functions' output, and the log file that keeps all of it.

The handlers print as on Lambda: Powertools' JSON log records and CloudWatch EMF documents, one JSON
object per line on stdout. Every such line is appended, as it is, to `stack.log` in the state
directory (until `waitgate dev --fresh`), for `jq` and for a program. The terminal shows them in the
`--log-format` asked for: `text` (the default on a terminal) one readable line per record —
time, level, function, message, then the record's own keys (`runId=… nodeId=…`), its exception
indented below — and no EMF document (`waitgate dev-metrics` sums them); `json` (the default when
the output is a pipe, as for the tests and benchmarks that start a stack) the lines unchanged. Any
other line (the stack's own, `waitgate dev: …`) passes through as it is.
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

LOG_FORMATS = ("text", "json")
FORMAT_VARIABLE = "WAITGATE_LOG_FORMAT"
VALUE_LIMIT = 120  # characters of one key's value on a text line (the log file keeps it whole)
# Powertools' members every record has: said by the line's head, or only noise on a terminal
_HEAD = frozenset(
    {
        "level",
        "location",
        "message",
        "timestamp",
        "service",
        "cold_start",
        "function_name",
        "function_memory_size",
        "function_arn",
        "function_request_id",
        "xray_trace_id",
        "sampling_rate",
        "exception",
        "exception_name",
        "stack_trace",
    }
)


def default_format(console: TextIO) -> str:
    """`$WAITGATE_LOG_FORMAT` when set, else text on a terminal and JSON on a pipe."""
    chosen = os.environ.get(FORMAT_VARIABLE, "")
    if chosen in LOG_FORMATS:
        return chosen
    return "text" if console.isatty() else "json"


def readable(record: dict[str, Any]) -> str | None:
    """One log record as a line (its exception indented below); None for an EMF document."""
    if "_aws" in record:
        return None
    time = str(record.get("timestamp", ""))[11:19]
    level = str(record.get("level", ""))
    function = _short(str(record.get("function_name", "")))
    keys = " ".join(f"{name}={_value(value)}" for name, value in record.items() if name not in _HEAD)
    line = " ".join(
        part for part in (time, f"{level:<7}", f"{function:<22}", str(record.get("message", ""))) if part
    )
    line = f"{line}  {keys}" if keys else line
    exception = record.get("exception")
    if isinstance(exception, str) and exception:
        line += "\n" + "\n".join(f"    {text}" for text in exception.splitlines())
    return line


def _short(function_name: str) -> str:
    """`waitgate-local-RequestInterruptFunction` → `RequestInterrupt`."""
    return function_name.rsplit("-", 1)[-1].removesuffix("Function")


def _value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 1] + "…"


class ConsoleStream(io.TextIOBase):
    """stdout for the stack's process: JSON lines to the log file (and to the terminal as the format
    says), other lines to the terminal. Each thread's partial line is its own (`print` writes the
    text and its newline apart), and whole lines are written under one lock."""

    def __init__(self, console: TextIO, log_path: Path, log_format: str) -> None:
        super().__init__()
        self._console, self._log_path, self._text = console, log_path, log_format == "text"
        self._lock = threading.Lock()
        self._partial = threading.local()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # TextIOBase's is read-only too, at run time
        return self._console.encoding

    def isatty(self) -> bool:
        return self._console.isatty()

    def fileno(self) -> int:
        return self._console.fileno()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        pending = getattr(self._partial, "text", "") + text
        *lines, self._partial.text = pending.split("\n")
        for line in lines:
            self._line(line)
        return len(text)

    def flush(self) -> None:
        with self._lock:
            self._console.flush()

    def _line(self, line: str) -> None:
        record = _json_object(line)
        with self._lock:
            if record is None:
                self._console.write(line + "\n")
                return
            with self._log_path.open("a", encoding="utf-8") as log:
                log.write(line + "\n")
            shown = readable(record) if self._text else line
            if shown is not None:
                self._console.write(shown + "\n")
            self._console.flush()


def _json_object(line: str) -> dict[str, Any] | None:
    if not line.startswith("{"):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def install(log_path: Path, log_format: str) -> None:
    """From now on, stdout is a ConsoleStream over the terminal's stdout (before the handlers load:
    Powertools' handler holds the stream it was given)."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout = ConsoleStream(sys.stdout, log_path, log_format)
