"""InterruptStore on DynamoDB: one BatchGetItem to read, one TransactWriteItems to commit."""

from __future__ import annotations

from typing import Any

from waitgate.adapters import dynamodb_answers as answers
from waitgate.adapters import dynamodb_items as items
from waitgate.adapters import dynamodb_keys, dynamodb_writes
from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.adapters.dynamodb_transactions import transact_once, watch_attempts
from waitgate.errors import (
    ConcurrentUpdateError,
    GuardFailedError,
    StoreRefusedError,
    TemporarilyUnavailableError,
)
from waitgate.run.records import (
    EventMode,
    EventPage,
    IdempotencyRef,
    InterruptRecord,
    ReentryKey,
    RunChange,
    RunRef,
    RunSnapshot,
    RunView,
    StoredAnswer,
)

Client = Any  # a boto3 DynamoDB client


class DynamoDbStore:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name
        watch_attempts(client)

    def load(
        self,
        run: RunRef,
        node_id: str,
        idempotency: IdempotencyRef | None = None,
        reentry_key: str | None = None,
    ) -> RunView:
        pk = dynamodb_keys.run_pk(run)
        wanted = [
            dynamodb_keys.key_of(pk, dynamodb_keys.SNAPSHOT_SK),
            dynamodb_keys.key_of(pk, dynamodb_keys.node_sk(node_id)),
        ]
        if reentry_key is not None:
            wanted.append(dynamodb_keys.key_of(pk, dynamodb_keys.reentry_sk(reentry_key)))
        if idempotency is not None:
            wanted.append(answers.answer_key(idempotency))
        found = self._batch_get(wanted)
        snapshot = found.get(dynamodb_keys.SNAPSHOT_SK)
        interrupt = found.get(dynamodb_keys.node_sk(node_id))
        answer = found.get(answers.ANSWER_SK) if idempotency is not None else None
        return RunView(
            snapshot=items.snapshot_from_item(snapshot) if snapshot else None,
            interrupt=items.interrupt_from_item(interrupt) if interrupt else None,
            answer=answers.answer_from_item(answer) if answer else None,
            reentry=_reentry(run, reentry_key, found),
        )

    def save_answer(self, ref: IdempotencyRef, answer: StoredAnswer) -> bool:
        try:
            self._client.put_item(**answers.answer_put(self._table, ref, answer))
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ConditionalCheckFailedException":
                return False
            raise _translate(error) from error
        return True

    def commit(self, change: RunChange) -> None:
        try:
            transact_once(self._client, _transaction(self._table, change))
        except AWS_CALL_ERRORS as error:
            failure = _failed_guard(error, change) or _translate(error)
            if isinstance(failure, ConcurrentUpdateError):
                failure.current = _found_instead(error, change)
            raise failure from error

    def mark_delivered(self, record: InterruptRecord, delivered_at: str) -> bool:
        return self._update_node(dynamodb_writes.delivered_update(self._table, record, delivered_at))

    def mark_noticed(self, record: InterruptRecord, noticed_at: str) -> bool:
        return self._update_node(dynamodb_writes.noticed_update(self._table, record, noticed_at))

    def defer_check(self, record: InterruptRecord, check_at: str) -> bool:
        return self._update_node(dynamodb_writes.check_update(self._table, record, check_at))

    def _update_node(self, update: dict[str, Any]) -> bool:
        try:
            self._client.update_item(**update)
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ConditionalCheckFailedException":
                return False
            raise _translate(error) from error
        return True

    def snapshot(self, run: RunRef) -> RunSnapshot | None:
        key = dynamodb_keys.key_of(dynamodb_keys.run_pk(run), dynamodb_keys.SNAPSHOT_SK)
        try:
            answer = self._client.get_item(TableName=self._table, Key=key, ConsistentRead=True)
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from error
        item = answer.get("Item")
        return items.snapshot_from_item(item) if item else None

    def events(self, run: RunRef, after: int, limit: int, modes: frozenset[EventMode]) -> EventPage:
        """One Query on the run's EVT# range: its cost depends on `limit`, never on the log's length."""
        query: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :from AND :to",
            "ExpressionAttributeValues": {
                ":pk": {"S": dynamodb_keys.run_pk(run)},
                ":from": {"S": dynamodb_keys.event_sk(after + 1)},
                ":to": {"S": dynamodb_keys.EVENTS_END},
            },
            "Limit": limit,
        }
        if modes != frozenset(("updates", "debug")):
            query["FilterExpression"] = "#mode IN (" + ", ".join(f":m{i}" for i in range(len(modes))) + ")"
            query["ExpressionAttributeNames"] = {"#mode": "mode"}
            for index, mode in enumerate(sorted(modes)):
                query["ExpressionAttributeValues"][f":m{index}"] = {"S": mode}
        try:
            answer = self._client.query(**query)
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from error
        events = tuple(items.event_from_item(item) for item in answer.get("Items", []))
        last = answer.get("LastEvaluatedKey")
        return EventPage(events, dynamodb_keys.seq_of_event_sk(last["sk"]["S"]) if last else None)

    def _batch_get(self, keys: list[dynamodb_keys.Item]) -> dict[str, dynamodb_keys.Item]:
        found: dict[str, dynamodb_keys.Item] = {}
        request: dict[str, Any] = {self._table: {"Keys": keys, "ConsistentRead": True}}
        while request:
            try:
                answer = self._client.batch_get_item(RequestItems=request)
            except AWS_CALL_ERRORS as error:
                raise _translate(error) from error
            for item in answer.get("Responses", {}).get(self._table, []):
                found[item["sk"]["S"]] = item
            request = answer.get("UnprocessedKeys") or {}
        return found


def _transaction(table: str, change: RunChange) -> list[dict[str, Any]]:
    writes: list[dict[str, Any]] = [_snapshot_put(table, change)]
    if change.interrupt is not None:
        writes.append(_interrupt_put(table, change))
        if (correlation := dynamodb_writes.correlation_write(table, change.interrupt)) is not None:
            writes.append(correlation)
    for event in change.events:
        writes.append(
            {
                "Put": {
                    "TableName": table,
                    "Item": items.event_item(change.snapshot.run, event),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        )
    if change.reentry is not None:
        writes.append(_reentry_put(table, change))
    writes.extend({"Put": {"TableName": table, "Item": items.receipt_item(r)}} for r in change.receipts)
    writes.extend(dynamodb_writes.guarded_write(table, guard) for guard in change.guarded)
    if change.answer is not None:
        writes.append({"Put": answers.answer_put(table, *change.answer)})
    return writes


def _snapshot_put(table: str, change: RunChange) -> dict[str, Any]:
    put: dict[str, Any] = {"TableName": table, "Item": items.snapshot_item(change.snapshot)}
    seen = change.snapshot.version_seen
    if seen is None:
        put["ConditionExpression"] = "attribute_not_exists(pk)"
    else:
        put["ConditionExpression"] = "nextSeq = :seen"
        put["ExpressionAttributeValues"] = {":seen": {"N": str(seen)}}
        put["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"  # the loser's re-read (_found_instead)
    return {"Put": put}


def _interrupt_put(table: str, change: RunChange) -> dict[str, Any]:
    assert change.interrupt is not None
    put: dict[str, Any] = {"TableName": table, "Item": items.interrupt_item(change.interrupt)}
    if change.expected_interrupt_version is None:
        put["ConditionExpression"] = "attribute_not_exists(pk)"
    else:
        put["ConditionExpression"] = "version = :version"
        put["ExpressionAttributeValues"] = {":version": {"N": str(change.expected_interrupt_version)}}
        put["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
    return {"Put": put}


def _reentry_put(table: str, change: RunChange) -> dict[str, Any]:
    """The key's record: new, or the one of the same interrupt (a key never changes hands)."""
    assert change.reentry is not None
    return {
        "Put": {
            "TableName": table,
            "Item": items.reentry_item(change.reentry),
            "ConditionExpression": "attribute_not_exists(pk) OR interruptId = :owner",
            "ExpressionAttributeValues": {":owner": {"S": change.reentry.interrupt_id}},
        }
    }


def _reentry(run: RunRef, key: str | None, found: dict[str, dynamodb_keys.Item]) -> ReentryKey | None:
    item = found.get(dynamodb_keys.reentry_sk(key)) if key is not None else None
    return items.reentry_from_item(run, key, item) if key is not None and item else None


def _failed_guard(error: Exception, change: RunChange) -> GuardFailedError | None:
    """The guard that failed, when only guards failed (a moved run item is a concurrent update)."""
    reasons = _cancellation_reasons(error)
    failed = [index for index, code in enumerate(reasons) if code == "ConditionalCheckFailed"]
    first_guard = len(reasons) - len(change.guarded) - (1 if change.answer is not None else 0)
    if not change.guarded or not failed or not first_guard <= failed[0] < first_guard + len(change.guarded):
        return None
    return GuardFailedError(change.guarded[failed[0] - first_guard].label)


def _found_instead(error: Exception, change: RunChange) -> RunView | None:
    """The run and node as the cancelled transaction found them, when both conditions failed: DynamoDB
    returns each such item (ReturnValuesOnConditionCheckFailure, no read units), read at one instant, so
    the use case plans again from them as from a consistent read. None when either is missing."""
    if change.interrupt is None or change.expected_interrupt_version is None:
        return None
    response = getattr(error, "response", None) or {}
    reasons = response.get("CancellationReasons") or []
    found = [reason.get("Item") for reason in reasons[:2] if reason.get("Code") == "ConditionalCheckFailed"]
    if len(found) < 2 or not all(found):
        return None
    snapshot, interrupt = found
    return RunView(items.snapshot_from_item(snapshot), items.interrupt_from_item(interrupt))


# Why a transaction was cancelled, item by item: only a condition that did not hold, or another
# transaction on the same items, is a conflict the use case re-reads and retries.
CONFLICT_REASONS = frozenset({"ConditionalCheckFailed", "TransactionConflict"})
TRANSIENT_REASONS = frozenset({"ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"})


def _cancellation_reasons(error: Exception) -> list[str]:
    response = getattr(error, "response", None) or {}
    return [str(reason.get("Code") or "None") for reason in response.get("CancellationReasons") or []]


def _translate(error: Exception) -> Exception:
    """One place where DynamoDB's answers become domain errors, by what they mean for the caller."""
    code = error_code(error)
    if code == "TransactionCanceledException":
        return _cancelled(set(_cancellation_reasons(error)) - {"None"})
    if code == "ConditionalCheckFailedException":
        return ConcurrentUpdateError("The run changed since it was read.")
    if code == "TransactionConflictException" or is_transient(error):
        return TemporarilyUnavailableError("The store is busy; retry the request.")
    if code == "ValidationException":
        return StoreRefusedError(f"The store refused the write ({code}).")
    return error


def _cancelled(reasons: set[str]) -> Exception:
    if reasons & CONFLICT_REASONS:
        return ConcurrentUpdateError("The run changed since it was read.")
    if reasons and reasons <= TRANSIENT_REASONS:
        return TemporarilyUnavailableError("The store is busy; retry the request.")
    return StoreRefusedError(f"The store refused the write ({', '.join(sorted(reasons)) or 'no reason'}).")
