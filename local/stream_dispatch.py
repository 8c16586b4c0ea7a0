"""DynamoDB-stream records reach their Lambda on a worker thread, never inside the write.

moto invokes a stream's event source mappings synchronously, inside the DynamoDB operation that
wrote the records. With `local.moto_atomicity` holding a lock around every item operation, a stream
handler that writes the table (on another server thread) would wait on that lock forever. Real
DynamoDB streams are asynchronous anyway: one worker keeps the records in order.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

logger = logging.getLogger(__name__)
_Delivery = tuple[Any, str, list[Any], str]


class StreamDispatcher:
    """Queues stream deliveries from moto and runs them, one at a time, on its own thread."""

    def __init__(self) -> None:
        self._deliveries: queue.Queue[_Delivery | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="dynamodb-streams", daemon=True)
        self._original: Any = None

    def install(self) -> None:
        """Patch moto 5.2.5's `LambdaBackend.send_dynamodb_items` (private; pin moto)."""
        from moto.awslambda.models import LambdaBackend

        self._original = getattr(LambdaBackend, "_waitgate_original_send", None) or (
            LambdaBackend.send_dynamodb_items
        )
        LambdaBackend._waitgate_original_send = self._original  # type: ignore[attr-defined]
        dispatcher = self

        def send_dynamodb_items(backend: Any, function_arn: str, items: list[Any], source: str) -> bool:
            dispatcher._deliveries.put((backend, function_arn, list(items), source))
            return True  # moto then clears the shard's pending records, as after a delivery

        LambdaBackend.send_dynamodb_items = send_dynamodb_items  # type: ignore[method-assign,assignment]
        self._thread.start()

    def stop(self) -> None:
        self._deliveries.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while (delivery := self._deliveries.get()) is not None:
            backend, function_arn, items, source = delivery
            try:
                self._original(backend, function_arn, items, source)
            except Exception:
                logger.exception("stream delivery to %s failed", function_arn)
