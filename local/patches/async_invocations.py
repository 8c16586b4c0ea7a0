"""Asynchronous Lambda invocations as Lambda runs them: queued, retried twice, then sent to the
function's OnFailure destination (or discarded).

EventBridge Scheduler and EventBridge rules invoke their Lambda targets asynchronously
(`InvocationType: Event`): Lambda answers 202 at once, runs the function, and when it fails (raises,
times out) runs it again, up to the `MaximumRetryAttempts` of the function's EventInvokeConfig (2 by
default); then it sends an invocation record (the request, the error, `condition: RetriesExhausted`,
`approximateInvokeCount`) to the `DestinationConfig.OnFailure` destination, and without one the event
is gone. moto 5.2.5's `LambdaFunction.invoke` runs an Event invocation inside the Invoke call, once,
and forgets a failure, so a dropped expiry never showed. Here it is run on a worker thread, retried
and dead-lettered as Lambda does; only the pauses are shorter (`RETRY_PAUSES_SECONDS`: Lambda waits
about a minute, then two). SQS destinations only (the template's); another kind is logged and dropped.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from local.patches import replace_attribute

logger = logging.getLogger(__name__)
DEFAULT_RETRIES = 2
RETRY_PAUSES_SECONDS = (0.5, 1.0)  # Lambda: ~1 minute, then ~2 minutes


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


class AsyncInvoker:
    """One worker thread running the queued asynchronous invocations in order."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[Any, Any]] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="lambda-async", daemon=True)
        self._thread.start()

    def submit(self, function: Any, event: Any) -> None:
        self._queue.put((function, event))

    def _run(self) -> None:
        while True:
            function, event = self._queue.get()
            try:
                self.run_to_the_end(function, event)
            except Exception:
                logger.exception(
                    "asynchronous invocation of %s failed in the stand-in", function.function_name
                )

    def run_to_the_end(self, function: Any, event: Any) -> None:
        config = _invoke_config(function)
        attempts = 1 + int(config.get("MaximumRetryAttempts", DEFAULT_RETRIES))
        for attempt in range(1, attempts + 1):
            payload, errored, _ = function._invoke_lambda(event=event)
            if not errored:
                return
            if attempt < attempts:
                time.sleep(RETRY_PAUSES_SECONDS[min(attempt, len(RETRY_PAUSES_SECONDS)) - 1])
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
