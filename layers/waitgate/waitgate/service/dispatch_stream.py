"""dispatchStream: the one reader of the interrupts table's stream hands each record to every consumer
it is work for — the outbox (deliver_resolution), the decision ledger (append_to_ledger), the Slack
refresh, the schedules' cleanup, the webhooks out (fan_out_webhooks) — in that order, each
failure-isolated from the others.

One event source mapping, not three: DynamoDB advises at most two readers per shard (more are
throttled and every consumer lags). The mapping has ReportBatchItemFailures and
BisectBatchOnFunctionError on, so Lambda retries from the record reported failed; the dispatcher makes
that safe for consumers that succeeded:

- **Records in order, stop at the first failure.** When a consumer fails on record r, r is reported and
  no later record of the batch runs: the retry starts at r and brings them again, so none of them ran
  twice.
- **What succeeded on r is remembered.** Before r is reported, its progress (the consumers done, and
  each failing consumer's attempts) is saved (`StreamProgress`, one item beside the runs, kept a day);
  the retried batch starts at r, so the dispatcher reads the progress of its first record only (one
  read per batch) and runs only the consumers not done. A consumer that succeeded is not run again.
- **A consumer's own retry budget.** The outbox is retried as long as the mapping retries (10 times,
  an hour, then its on-failure queue): a committed answer must reach the workflow. The best-effort ones
  have a budget: the cleanup gives up after 3 retries (a schedule left behind fires and changes
  nothing), the Slack refresh after 5 (its record is parked, as before); so neither holds the shard
  behind it for longer than it used to hold its own mapping.

Each consumer stays idempotent besides (the outbox re-reads the item, a deleted schedule is
ResourceNotFound, a Slack update says the same again): a function that dies mid-batch saves nothing and
its batch is retried whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from waitgate.ports import StreamProgress
from waitgate.run.records import RecordProgress


@dataclass(frozen=True)
class Consumer:
    """One consumer's work on one record. `retries`: how often it is retried before it is given up
    (None: as long as the mapping retries); `give_up` is told why when it is."""

    name: str
    work: Callable[[], object]
    retries: int | None = None
    give_up: Callable[[Exception], None] | None = None


@dataclass(frozen=True)
class RoutedRecord:
    """A stream record (`record_id`: its sequence number, the mapping's item identifier) and the
    consumers it is work for, in the order they run."""

    record_id: str
    consumers: tuple[Consumer, ...]


@dataclass(frozen=True)
class DispatchOutcome:
    failed: tuple[str, ...] = ()  # the record to report (at most one: where the retry starts)
    ran: tuple[tuple[str, str], ...] = ()  # (record id, consumer) that succeeded now
    given_up: tuple[tuple[str, str], ...] = ()  # (record id, consumer) abandoned now
    failures: tuple[tuple[str, str, str], ...] = field(default=())  # (record id, consumer, error type)


def dispatch(records: Sequence[RoutedRecord], progress: StreamProgress) -> DispatchOutcome:
    outcome = DispatchOutcome()
    for index, record in enumerate(records):
        if not record.consumers:
            continue
        known = progress.load(record.record_id) if index == 0 else RecordProgress()
        after, outcome = _run(record, known, outcome)
        if after.failing:
            progress.save(record.record_id, after)
            return replace(outcome, failed=(record.record_id,))
    return outcome


def _run(
    record: RoutedRecord, known: RecordProgress, outcome: DispatchOutcome
) -> tuple[RecordProgress, DispatchOutcome]:
    done, attempts, failing = set(known.done), dict(known.attempts), set()
    ran, given_up, failures = list(outcome.ran), list(outcome.given_up), list(outcome.failures)
    for consumer in record.consumers:
        if consumer.name in done:
            continue
        try:
            consumer.work()
        except Exception as error:  # noqa: BLE001 (any failure of a consumer fails its record, as in Lambda)
            attempts[consumer.name] = attempts.get(consumer.name, 0) + 1
            failures.append((record.record_id, consumer.name, type(error).__name__))
            if consumer.retries is not None and attempts[consumer.name] > consumer.retries:
                if consumer.give_up is not None:
                    consumer.give_up(error)
                done.add(consumer.name)
                given_up.append((record.record_id, consumer.name))
            else:
                failing.add(consumer.name)
            continue
        done.add(consumer.name)
        ran.append((record.record_id, consumer.name))
    after = RecordProgress(frozenset(done), attempts, frozenset(failing))
    return after, DispatchOutcome(outcome.failed, tuple(ran), tuple(given_up), tuple(failures))
