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
_installed: list[bool] = []


@contextmanager
def invocation(keys: dict[str, Any]) -> Iterator[None]:
    """While the block runs, records made on this thread carry `keys` (Powertools' lambda context keys)."""
    token = _CURRENT.set(keys)
    try:
        yield
    finally:
        _CURRENT.reset(token)


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
