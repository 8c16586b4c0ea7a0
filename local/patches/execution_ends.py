"""Who wants to know that a Step Functions execution ended: told at once, from moto's worker thread.

moto 5.2.5's interpreter ends an execution in `BaseExecutionWorkerCommunication.terminated` (a
StopExecution ends it in `local.patches.stopped_executions`, which tells too), and emits no event: the
execution-events pump (`local.standins.execution_events`) would otherwise list every execution of
every state machine several times a second to find the ones that ended.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from local.patches import replace_attribute

_listeners: list[Callable[[], None]] = []
_lock = threading.Lock()


def install() -> None:
    """Patch moto's (private) parser BaseExecutionWorkerCommunication.terminated; idempotent. Pin moto."""
    from moto.stepfunctions.parser.backend.execution import BaseExecutionWorkerCommunication

    def telling(original: Any) -> Any:
        def terminated(self: Any) -> None:
            original(self)
            ended()

        return terminated

    replace_attribute(BaseExecutionWorkerCommunication, "terminated", telling)


def listen(listener: Callable[[], None]) -> Callable[[], None]:
    """`listener()` after each execution's end (it must be quick); returns what stops it."""
    with _lock:
        _listeners.append(listener)

    def forget() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return forget


def ended() -> None:
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        listener()
