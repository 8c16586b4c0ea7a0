"""getRun and listRunEvents on moto: scope, tenant isolation, query checks, paging; and a resolve
costs the same DynamoDB calls in a run of 10,000 events as in a fresh one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.kind_steps import KindSteps
from tests.support.run_reads import get_run_event, list_events_event
from tests.support.untraced import UNTRACED

CUSTOM = {"kind": "custom", "key": "label", "data": {"customKind": "acme.label"}}


def answer_of(steps: KindSteps, function: str, event: dict[str, Any]) -> tuple[int, Any]:
    answer = steps.handler(function)(event)
    return answer["statusCode"], json.loads(answer["body"])


def test_another_tenant_sees_no_run(steps: KindSteps) -> None:
    # Given acme's suspended run
    run, _ = steps.suspend(CUSTOM, tenant="acme")
    assert steps.snapshot(run.run_id, tenant="acme")[1]["status"] == "waiting-input"
    # When globex reads it, Then 404 for the snapshot and the log, as for a run that does not exist
    for function, event in (
        ("get_run", get_run_event(run.run_id, tenant="globex")),
        ("list_run_events", list_events_event(run.run_id, tenant="globex")),
    ):
        status, problem = answer_of(steps, function, event)
        assert (status, problem["code"]) == (404, "not_found")
    assert answer_of(steps, "get_run", get_run_event("no-such-run"))[0] == 404


def test_reads_need_the_runs_read_scope(steps: KindSteps) -> None:
    run, _ = steps.suspend(CUSTOM)
    for function, event in (
        ("get_run", get_run_event(run.run_id, scope="approvals:respond")),
        ("list_run_events", list_events_event(run.run_id, scope="approvals:respond")),
    ):
        status, problem = answer_of(steps, function, event)
        assert (status, problem["code"]) == (403, "forbidden")


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ({"mode": "verbose"}, "mode"),
        ({"after": "-1"}, "after"),
        ({"after": "x"}, "after"),
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
    ],
)
def test_a_malformed_query_is_a_400_naming_the_parameter(
    steps: KindSteps, query: dict[str, str], path: str
) -> None:
    run, _ = steps.suspend(CUSTOM)
    status, problem = answer_of(steps, "list_run_events", list_events_event(run.run_id, **query))
    assert (status, problem["code"], problem["path"]) == (400, "validation_error", path)


def test_events_page_by_seq_with_next(steps: KindSteps) -> None:
    # Given a run with two events
    run, _ = steps.suspend(CUSTOM)
    steps.resolve(run.run_id, "Interrupt", "ok")
    # When read one at a time, Then each page has one event and next points past it
    status, first = answer_of(steps, "list_run_events", list_events_event(run.run_id, limit=1))
    assert status == 200
    assert (first["events"][0]["seq"], first["next"]) == (1, 1)
    second = answer_of(steps, "list_run_events", list_events_event(run.run_id, limit=1, after=1))[1]
    assert [e["type"] for e in second["events"]] == ["interrupt.resolved"]
    # And reading after the last event gives an empty page with no next
    last = answer_of(steps, "list_run_events", list_events_event(run.run_id, after=2))[1]
    assert last == {"events": []}


def seed_events(table_name: str, run_id: str, count: int) -> None:
    """`count` agent.decided events and a snapshot that has counted them, written straight to moto's
    table (the 400 BatchWriteItem requests they would take cost more than the reads under test)."""
    from moto.core.models import DEFAULT_ACCOUNT_ID
    from moto.dynamodb.models import dynamodb_backends

    pk = {"S": f"RUN#default#{run_id}"}
    items = [
        {
            "pk": pk,
            "sk": {"S": f"EVT#{seq:012d}"},
            "seq": {"N": str(seq)},
            "type": {"S": "agent.decided"},
            "time": {"S": "2026-11-30T10:00:00.000Z"},
            "mode": {"S": "updates"},
            "nodeId": {"S": "Decide"},
            "payload": {"S": json.dumps({"agentId": "a", "confidence": 0.9, "n": seq})},
        }
        for seq in range(1, count + 1)
    ]
    items.append(
        {
            "pk": pk,
            "sk": {"S": "RUN"},
            "runId": {"S": run_id},
            "tenantId": {"S": "default"},
            "status": {"S": "running"},
            "nextSeq": {"N": str(count + 1)},
        }
    )
    backend = dynamodb_backends[DEFAULT_ACCOUNT_ID]["us-east-1"]
    for item in items:
        backend.put_item(table_name, item)


@pytest.fixture
def dynamodb_calls() -> Iterator[list[tuple[str, int]]]:
    """(operation, number of items it names) for every DynamoDB call the handlers make."""
    from waitgate.wiring import composition

    calls: list[tuple[str, int]] = []

    def record(model: Any, params: dict[str, Any], **_: Any) -> None:
        named = len(params.get("TransactItems", [])) or sum(
            len(table["Keys"]) for table in params.get("RequestItems", {}).values()
        )
        calls.append((model.name, named))

    client = composition.aws_client("dynamodb")
    client.meta.events.register("before-parameter-build.dynamodb", record)
    yield calls
    client.meta.events.unregister("before-parameter-build.dynamodb", record)


@UNTRACED  # its CPU is outside the layer (tests/support/untraced.py)
def test_a_resolve_costs_the_same_with_1_and_with_10000_events(
    steps: KindSteps, table_name: str, dynamodb_calls: list[tuple[str, int]]
) -> None:
    # Given a fresh suspended run, and one whose log already holds 9,999 events before it suspends
    fresh, _ = steps.suspend(CUSTOM)
    seed_events(table_name, "run-long", 9_999)
    long, _ = steps.suspend(CUSTOM, run_id="run-long")
    # (its suspension is the 10,000th event and the last: reading the whole log is the next test's)
    status, tail = answer_of(
        steps, "list_run_events", list_events_event("run-long", mode="updates", after=9_999)
    )
    assert (status, [event["seq"] for event in tail["events"]], "next" in tail) == (200, [10_000], False)
    # When each is resolved
    dynamodb_calls.clear()
    assert steps.resolve(fresh.run_id, "Interrupt", {"label": "ok"})[0] == 200
    fresh_calls = list(dynamodb_calls)
    dynamodb_calls.clear()
    assert steps.resolve("run-long", "Interrupt", {"label": "ok"})[0] == 200
    long_calls = list(dynamodb_calls)
    # Then both made exactly the same DynamoDB calls: one read of two items, one transaction (snapshot,
    # node, event, re-entry key, the decider's receipt: docs/inbox.md) and, once delivered, one
    # conditional update marking it delivered
    expected = [("BatchGetItem", 2), ("TransactWriteItems", 5), ("UpdateItem", 0)]
    assert fresh_calls == long_calls == expected
    assert steps.output_of(long) == {"label": "ok"}


@UNTRACED  # its CPU is outside the layer (tests/support/untraced.py)
def test_reading_a_10000_event_log_is_paginated(
    steps: KindSteps, table_name: str, dynamodb_calls: list[tuple[str, int]]
) -> None:
    # Given a run of 10,000 events
    seed_events(table_name, "run-long", 10_000)
    # When the first page is read with no limit, Then it holds the default 100 events and a next
    status, page = answer_of(steps, "list_run_events", list_events_event("run-long"))
    assert status == 200
    assert (len(page["events"]), page["next"]) == (100, 100)
    # When the whole log is read in pages of 1,000, Then every seq comes once, in order
    dynamodb_calls.clear()
    events = steps.events("run-long", "debug", limit=1000)
    assert [e["seq"] for e in events] == list(range(1, 10_001))
    # And each page was one Query of at most 1,000 items (plus the snapshot read)
    assert [name for name, _ in dynamodb_calls].count("Query") in {10, 11}
