"""DynamoDB-stream records reach their Lambda on a worker thread, never inside the write: filtered as
the mapping's FilterCriteria say, and no sooner than a poll or the mapping's
MaximumBatchingWindowInSeconds after the write, as Lambda's stream poller delivers them.

moto invokes a stream's event source mappings synchronously, inside the DynamoDB operation that
wrote the records. With `local.patches.moto_atomicity` holding a lock around every item operation, a stream
handler that writes the table (on another server thread) would wait on that lock forever. Real
DynamoDB streams are asynchronous anyway: one worker keeps the records in order.

Lambda polls a shard a few times a second, waits up to the mapping's batching window, and invokes the
function only with the records a FilterCriteria pattern matches (local.template.event_patterns). The outbox
depends on both: a resolver sends SendTaskSuccess right after its commit and then marks the item
delivered; the consumer, invoked with the commit's record, re-reads the item and sends only if it is
still unmarked. Handed over at once and unfiltered (moto's way), the consumer re-read the item before
the resolver had marked it, and both sent (docs/durability.md).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from typing import Any

from local.patches import faults, replace_attribute
from local.template.event_patterns import matches

logger = logging.getLogger(__name__)
_Batch = tuple[Any, str, list[Any], str]
_Delivery = tuple[_Batch, float]  # the batch, and when it is due (time.monotonic)
MAX_RETRY_ATTEMPTS = 10
POLL_SECONDS = 0.25  # Lambda polls each shard about four times a second
BACKOFF_SECONDS = 0.05
BACKOFF_CAP_SECONDS = 1.0
_NUMBERED = "_waitgate_numbered"  # a mark on moto's StreamRecord object (not in the record it sends)


class StreamDispatcher:
    """Queues stream deliveries from moto and runs them, one at a time, on its own thread."""

    def __init__(self) -> None:
        self._deliveries: queue.Queue[_Delivery | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="dynamodb-streams", daemon=True)
        self._stopping = threading.Event()
        self._original: Any = None
        self.filters: dict[tuple[str, str], list[dict[str, Any]]] = {}  # StackContext.stream_filters
        self._numbers_lock = threading.Lock()
        self._last_number = 0

    def install(self) -> None:
        """Patch moto 5.2.5's `LambdaBackend.send_dynamodb_items` (private; pin moto) so that this
        dispatcher takes the records (the patch routes to the newest installed dispatcher)."""
        from moto.awslambda.models import LambdaBackend

        replace_attribute(LambdaBackend, "send_dynamodb_items", _routed_to_dispatcher)
        self._original = _MOTO_SEND[0]
        _ACTIVE[:] = [self]
        self._thread.start()

    def accept(self, backend: Any, function_arn: str, items: list[Any], source: str) -> bool:
        for item in items:
            self.number(item)
        wanted = [item for item in self.filtered(function_arn, source, items) if not _lost(item)]
        if wanted:
            wait = max(POLL_SECONDS, batching_window_seconds(backend, function_arn, source))
            self._deliveries.put(((backend, function_arn, wanted, source), time.monotonic() + wait))
        return True  # moto then clears the shard's pending records, as after a delivery

    def number(self, item: Any) -> None:
        """Give the record a sequence number of its own, above every earlier one, as DynamoDB does (once).

        moto 5.2.5 numbers a record by the shard's pending records (`len(items) + start`), and the
        dispatcher takes them as they come, so every record was `1100000000017454423009`. The stream
        reader keys a failed record's progress by that number (`STREAM#<number>`): one consumer's
        failure on one record (the schedules' cleanup, done: the outbox) then made every later
        record's batch skip the outbox, and a resolution whose inline send failed was never
        delivered (bench/races.py, docs/durability.md). Numbers start from the clock, in
        microseconds, so a restarted stack's numbers stay above those its kept progress items name."""
        if getattr(item, _NUMBERED, False):
            return
        with self._numbers_lock:
            self._last_number = max(self._last_number + 1, time.time_ns() // 1000 * 1_000_000)
            item.record["dynamodb"]["SequenceNumber"] = str(self._last_number)
        setattr(item, _NUMBERED, True)

    def stop(self) -> None:
        self._stopping.set()
        self._deliveries.put(None)
        self._thread.join(timeout=10)

    def filtered(self, function_arn: str, source: str, items: list[Any]) -> list[Any]:
        """The records the mapping's filter patterns match (all of them when it has none)."""
        patterns = self.filters.get((function_arn.split(":function:")[-1], source))
        if not patterns:
            return list(items)
        return [item for item in items if any(matches(p, item.to_json()) for p in patterns)]

    def _run(self) -> None:
        while (delivery := self._deliveries.get()) is not None:
            batch, due = delivery
            if self._stopping.wait(max(0.0, due - time.monotonic())):
                return
            self._deliver(*batch)

    def _deliver(self, backend: Any, function_arn: str, items: list[Any], source: str) -> None:
        """As an event source mapping with ReportBatchItemFailures does: a failed batch (the handler
        raised) is retried whole, a partial failure from its first failed record on, with backoff, up
        to MAX_RETRY_ATTEMPTS (the template's MaximumRetryAttempts); the shard waits meanwhile."""
        for attempt in range(MAX_RETRY_ATTEMPTS + 1):
            try:
                answer = self._original(backend, function_arn, items, source)
            except Exception:
                logger.exception("stream delivery to %s failed", function_arn)
                answer = None
            first_failed = _first_failed(answer, items)
            if first_failed is None:
                return
            items = items[first_failed:]
            time.sleep(min(BACKOFF_CAP_SECONDS, BACKOFF_SECONDS * 2**attempt))
        logger.error("stream delivery to %s gave up on %d record(s)", function_arn, len(items))


_ACTIVE: list[StreamDispatcher] = []
_MOTO_SEND: list[Any] = []  # moto's own send_dynamodb_items, which really invokes the function


def _routed_to_dispatcher(moto_send: Any) -> Any:
    _MOTO_SEND[:] = [moto_send]

    def send_dynamodb_items(backend: Any, function_arn: str, items: list[Any], source: str) -> bool:
        return _ACTIVE[-1].accept(backend, function_arn, items, source)

    return send_dynamodb_items


def _lost(item: Any) -> bool:
    """Whether the `stream_record` fault drops this record (local.patches.faults): as if the mapping
    had given up on it, its consumer never sees it."""
    keys = item.to_json()["dynamodb"].get("Keys", {})
    pk = str(keys.get("pk", {}).get("S", ""))
    run_id = pk.split("#", 2)[2] if pk.startswith("RUN#") and pk.count("#") >= 2 else None
    return faults.strikes("stream_record", runId=run_id, sk=str(keys.get("sk", {}).get("S", ""))[:40])


def batching_window_seconds(backend: Any, function_arn: str, source: str) -> float:
    """The MaximumBatchingWindowInSeconds of the mapping from stream `source` to the function."""
    for mapping in backend.list_event_source_mappings(source, ""):
        if mapping.function_arn == function_arn:
            return float(mapping.max_batch_window or 0)
    return 0.0


def _first_failed(answer: Any, items: list[Any]) -> int | None:
    """Where to retry from: None when the batch succeeded, 0 when the handler failed as a whole."""
    try:
        body = json.loads(answer) if answer else {}
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    if "errorType" in body or answer is None:
        return 0
    failed = {entry.get("itemIdentifier") for entry in body.get("batchItemFailures") or []}
    for index, item in enumerate(items):
        if item.to_json()["dynamodb"].get("SequenceNumber") in failed:
            return index
    return None
