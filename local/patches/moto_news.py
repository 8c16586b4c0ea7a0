"""What moto did that a pump waits for, told at once from the thread that did it, and counted.

moto 5.2.5 emits no event when an execution starts or ends, a state machine is created or deleted, a
schedule is created or changed, SES sends an e-mail, or a queue gets a message (or a message's
visibility changes). Without these patches a pump would have to ask moto several times a second
whether any of it happened (docs/local-stack.md, "What an idle stack costs"): the execution-events
pump ticks when an execution ends, the schedule pump when a schedule is created or changed, the
sent-mail pump when SES sent one, an SQS poller when its queue changed, and the autosave compares the
counts (`count`) with those of its last save instead of listing every state machine's executions. A
StopExecution ends an execution in `local.patches.stopped_executions`, which tells too.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from local.patches import replace_attribute

EXECUTION_STARTED = "execution started"
EXECUTION_ENDED = "execution ended"
MACHINES_CHANGED = "state machine created or deleted"
SCHEDULES_CHANGED = "schedule created or changed"
MAIL_SENT = "e-mail sent"
_SES_SENDS = ("send_email", "send_raw_email", "send_templated_email", "send_bulk_templated_email")

_listeners: dict[str, list[Callable[[], None]]] = {}
_counts: Counter[str] = Counter()
_lock = threading.Lock()


def install() -> None:
    """Patch moto's (private) parser execution worker, Step Functions backends, scheduler models and
    SES backend; idempotent. Pin moto."""
    from moto.scheduler.models import Schedule, ScheduleGroup
    from moto.ses.models import SESBackend
    from moto.sqs.models import Queue, SQSBackend
    from moto.stepfunctions.models import StepFunctionBackend
    from moto.stepfunctions.parser.backend.execution import BaseExecutionWorkerCommunication
    from moto.stepfunctions.parser.models import StepFunctionsParserBackend

    replace_attribute(BaseExecutionWorkerCommunication, "terminated", telling(EXECUTION_ENDED))
    replace_attribute(StepFunctionsParserBackend, "start_execution", telling(EXECUTION_STARTED))
    # (the parser backend's create_state_machine calls its base's; its start_execution does not)
    replace_attribute(StepFunctionBackend, "create_state_machine", telling(MACHINES_CHANGED))
    replace_attribute(StepFunctionBackend, "delete_state_machine", telling(MACHINES_CHANGED))
    replace_attribute(ScheduleGroup, "add_schedule", telling(SCHEDULES_CHANGED))
    replace_attribute(Schedule, "update", telling(SCHEDULES_CHANGED))
    for send in _SES_SENDS:
        replace_attribute(SESBackend, send, telling(MAIL_SENT))
    replace_attribute(Queue, "add_message", _telling_the_queue)
    replace_attribute(SQSBackend, "change_message_visibility", _telling_the_changed_queue)


def queue_changed(queue_name: str) -> str:
    """The news that the queue got a message, or that a message's visibility changed."""
    return f"queue {queue_name} changed"


def telling(news: str) -> Callable[[Any], Any]:
    """A replacement for `replace_attribute`: the original, then `news` told (when it did not raise)."""

    def replacement(original: Any) -> Any:
        def told(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            tell(news)
            return result

        return told

    return replacement


def _telling_the_queue(original: Any) -> Any:
    def add_message(queue: Any, message: Any) -> None:
        original(queue, message)
        tell(queue_changed(queue.name))

    return add_message


def _telling_the_changed_queue(original: Any) -> Any:
    def change_message_visibility(backend: Any, queue_name: str, *args: Any, **kwargs: Any) -> None:
        original(backend, queue_name, *args, **kwargs)
        tell(queue_changed(queue_name))

    return change_message_visibility


def listen(news: str, listener: Callable[[], None]) -> Callable[[], None]:
    """`listener()` after each `news` (it must be quick: a pump's `wake`); returns what stops it."""
    with _lock:
        _listeners.setdefault(news, []).append(listener)

    def forget() -> None:
        with _lock:
            if listener in _listeners.get(news, []):
                _listeners[news].remove(listener)

    return forget


def tell(news: str) -> None:
    with _lock:
        _counts[news] += 1
        listeners = list(_listeners.get(news, []))
    for listener in listeners:
        listener()


def count(news: str) -> int:
    """How many times `news` was told in this process (only ever grows)."""
    with _lock:
        return _counts[news]
