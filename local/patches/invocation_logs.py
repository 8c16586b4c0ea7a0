"""Each log line names the function (and invocation) that wrote it, as on Lambda.

On Lambda every function has processes of its own. Here all handlers share one process, so every
Powertools `Logger(service="waitgate")` shares one formatter, and `inject_lambda_context` writes the
function's name, ARN, request id and cold start into that shared formatter: with two invocations in
flight, one function's lines carried the other's name. The local runtime marks the invocation running
on the current thread, and a log record factory copies its keys onto every record made on that thread;
Powertools puts a record's own attributes last, so they win over the shared ones.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_CURRENT: ContextVar[dict[str, Any] | None] = ContextVar("waitgate_local_invocation", default=None)
_RUN: ContextVar[str | None] = ContextVar("waitgate_local_invocation_run", default=None)
_installed: list[bool] = []
RUN_KEY_PREFIX = "RUN#"


@contextmanager
def invocation(keys: dict[str, Any], event: Any = None) -> Iterator[None]:
    """While the block runs, records made on this thread carry `keys` (Powertools' lambda context keys),
    and `current_run()` is the run `event` is about, where it says (never in a log line)."""
    token, run = _CURRENT.set(keys), _RUN.set(run_of_event(event))
    try:
        yield
    finally:
        _CURRENT.reset(token)
        _RUN.reset(run)


def run_of_event(event: Any) -> str | None:
    """The run an invocation's event is about: a run-surface request's `runId` path parameter, an
    expiry's or a Task's `runId`, or the one run of a stream batch's keys; else None."""
    if not isinstance(event, dict):
        return None
    path = event.get("pathParameters")
    found = path.get("runId") if isinstance(path, dict) else None
    found = found or event.get("runId")
    if isinstance(found, str) and found:
        return found
    records = event.get("Records")
    keys = [r.get("dynamodb", {}).get("Keys", {}) for r in records if isinstance(r, dict)] if records else []
    runs = {str(k.get("pk", {}).get("S", "")).split("#", 2)[-1] for k in keys if isinstance(k, dict)}
    pks = {str(k.get("pk", {}).get("S", "")) for k in keys if isinstance(k, dict)}
    return runs.pop() if len(runs) == 1 and all(pk.startswith(RUN_KEY_PREFIX) for pk in pks) else None


def current_run() -> str | None:
    """The run the invocation running on this thread is about (None: unknown, or no invocation)."""
    return _RUN.get()


def install() -> None:
    """Wrap the log record factory once (other factories installed before keep working)."""
    if _installed:
        return
    make_record = logging.getLogRecordFactory()

    def record_with_invocation(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make_record(*args, **kwargs)
        keys = _CURRENT.get()
        if keys is not None:
            record.__dict__.update(keys)
        return record

    logging.setLogRecordFactory(record_with_invocation)
    _installed.append(True)


def current_function() -> str | None:
    """The function whose invocation runs on this thread (None outside any invocation)."""
    keys = _CURRENT.get()
    name = keys.get("function_name") if keys is not None else None
    return str(name) if name else None
