"""Asynchronous Lambda invocations as Lambda runs them: queued, retried twice, then sent to the
function's OnFailure destination (or discarded).

EventBridge Scheduler and EventBridge rules invoke their Lambda targets asynchronously
(`InvocationType: Event`): Lambda answers 202 at once, runs the function, and when it fails (raises,
times out) runs it again, up to the `MaximumRetryAttempts` of the function's EventInvokeConfig (2 by
default); then it sends an invocation record (the request, the error, `condition: RetriesExhausted`,
`approximateInvokeCount`) to the `DestinationConfig.OnFailure` destination, and without one the event
is gone. moto 5.2.5's `LambdaFunction.invoke` runs an Event invocation inside the Invoke call, once,
and forgets a failure, so a dropped expiry never showed. Here it is queued and run by a small pool of
worker threads (`WORKERS`), retried and dead-lettered as Lambda does; a retry waits in the queue for
its due time, never in a worker, so one failing function does not hold up the others' invocations.
Only the pauses are shorter (`RETRY_PAUSES_SECONDS`: Lambda waits about a minute, then two). SQS
destinations only (the template's); another kind is logged and dropped.
"""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from local.patches import replace_attribute

logger = logging.getLogger(__name__)
DEFAULT_RETRIES = 2
RETRY_PAUSES_SECONDS = (0.5, 1.0)  # Lambda: ~1 minute, then ~2 minutes
WORKERS = 4


def invocation_record(
    function_arn: str, event: Any, error: Any, attempts: int, now: datetime | None = None
) -> dict[str, Any]:
    """What Lambda sends an OnFailure destination for an asynchronous invocation it gave up on."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return {
        "version": "1.0",
        "timestamp": stamp,
        "requestContext": {
            "requestId": str(uuid.uuid4()),
            "functionArn": f"{function_arn}:$LATEST",
            "condition": "RetriesExhausted",
            "approximateInvokeCount": attempts,
        },
        "requestPayload": event,
        "responseContext": {"statusCode": 200, "executedVersion": "$LATEST", "functionError": "Unhandled"},
        "responsePayload": error,
    }


@dataclass(order=True)
class Invocation:
    """One asynchronous invocation waiting in the queue: due at `due` (the clock's seconds), its
    `attempt`-th run (1, then Lambda's retries)."""

    due: float
    order: int
    function: Any = field(compare=False)
    event: Any = field(compare=False)
    attempt: int = field(compare=False, default=1)


class AsyncInvoker:
    """A small pool of worker threads running the queued asynchronous invocations, soonest due first.

    A failed run is put back in the queue with its retry's due time (RETRY_PAUSES_SECONDS after the
    failure) rather than waited for in its worker: one thread once slept through every retry pause
    while the expiries queued behind it waited, and under load the reconciler expired deadlines before
    their own scheduled invocation ran. Lambda runs a function's asynchronous invocations concurrently
    too; no order between them is promised."""

    def __init__(
        self,
        workers: int = WORKERS,
        pauses: tuple[float, ...] = RETRY_PAUSES_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pauses, self._clock = pauses, clock
        self._queue: list[Invocation] = []
        self._order = itertools.count()
        self._running = 0
        self._stopped = False
        self._changed = threading.Condition()
        self._threads = [
            threading.Thread(target=self._work, name=f"lambda-async-{n}", daemon=True) for n in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, function: Any, event: Any) -> None:
        self._put(Invocation(self._clock(), 0, function, event))

    def _put(self, invocation: Invocation) -> None:
        with self._changed:
            invocation.order = next(self._order)
            heapq.heappush(self._queue, invocation)
            self._changed.notify_all()  # (a waiting test, or idle(), must not take a worker's wake-up)

    def queued(self, count: int, timeout: float) -> bool:
        """Whether `count` invocations wait in the queue (not running) within `timeout` seconds (tests)."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self._queue) == count, timeout)

    def idle(self, timeout: float) -> bool:
        """Whether the queue emptied and no run is in flight within `timeout` seconds (tests)."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._queue and not self._running, timeout)

    def stop(self) -> None:
        """The workers end once their run does (what is queued is dropped); tests."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        for thread in self._threads:
            thread.join(timeout=30)

    def _next(self) -> Invocation | None:
        """The soonest invocation, once it is due (None: stopped)."""
        with self._changed:
            while not self._stopped:
                wait = self._queue[0].due - self._clock() if self._queue else None
                if wait is not None and wait <= 0:
                    self._running += 1
                    return heapq.heappop(self._queue)
                self._changed.wait(wait)
            return None

    def _work(self) -> None:
        while (invocation := self._next()) is not None:
            try:
                self.run_once(invocation)
            except Exception:
                logger.exception(
                    "asynchronous invocation of %s failed in the stand-in", invocation.function.function_name
                )
            finally:
                with self._changed:
                    self._running -= 1
                    self._changed.notify_all()

    def run_once(self, invocation: Invocation) -> None:
        """Run it; a failure is queued again for its retry, or (retries spent) sent to OnFailure."""
        function, event = invocation.function, invocation.event
        config = _invoke_config(function)
        attempts = 1 + int(config.get("MaximumRetryAttempts", DEFAULT_RETRIES))
        payload, errored, _ = function._invoke_lambda(event=event)
        if not errored:
            return
        if invocation.attempt < attempts:
            pause = self._pauses[min(invocation.attempt, len(self._pauses)) - 1]
            retry = Invocation(self._clock() + pause, 0, function, event, invocation.attempt + 1)
            self._put(retry)
            return
        self._give_up(invocation, payload, attempts, config)

    def _give_up(self, invocation: Invocation, payload: Any, attempts: int, config: dict[str, Any]) -> None:
        function, event = invocation.function, invocation.event
        error = _parsed(payload)
        destination = config.get("DestinationConfig", {}).get("OnFailure", {}).get("Destination", "")
        error_type = error.get("errorType", "an error") if isinstance(error, dict) else "an error"
        if not destination:
            logger.error(
                "asynchronous invocation of %s failed %d times (%s): discarded, as Lambda does without an "
                "OnFailure destination",
                function.function_name,
                attempts,
                error_type,
            )
            return
        record = invocation_record(function.function_arn, event, error, attempts)
        _send(function, destination, record)
        logger.error(
            "asynchronous invocation of %s failed %d times (%s): sent to its OnFailure destination %s",
            function.function_name,
            attempts,
            error_type,
            destination.rsplit(":", 1)[-1],
        )


def _invoke_config(function: Any) -> dict[str, Any]:
    configs = getattr(function, "event_invoke_config", []) or []
    return dict(configs[0].config) if configs else {}


def _parsed(payload: Any) -> Any:
    try:
        return json.loads(payload)
    except (TypeError, ValueError):
        return {"errorMessage": str(payload)}


def _send(function: Any, destination: str, record: dict[str, Any]) -> None:
    from moto.sqs.models import sqs_backends

    if ":sqs:" not in destination:
        logger.error("OnFailure destination %s is not an SQS queue: not supported locally", destination)
        return
    region, account, queue_name = destination.split(":")[3:6]
    sqs_backends[account][region].send_message(queue_name, json.dumps(record, default=str))


_INVOKER: list[AsyncInvoker] = []


def install() -> None:
    """Patch moto's (private) LambdaFunction.invoke; idempotent. Pin moto."""
    from moto.awslambda.models import LambdaFunction

    if not _INVOKER:
        _INVOKER.append(AsyncInvoker())

    def queued_when_asynchronous(original: Any) -> Any:
        def invoke(self: Any, body: Any, request_headers: Any, response_headers: Any) -> Any:
            if (request_headers or {}).get("x-amz-invocation-type") != "Event":
                return original(self, body, request_headers, response_headers)
            event = json.loads(body) if body else {}
            _INVOKER[0].submit(self, event)
            return b""

        return invoke

    replace_attribute(LambdaFunction, "invoke", queued_when_asynchronous)
