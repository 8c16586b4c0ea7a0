"""conversation.start / exchange / close on moto: conversationId unique per tenant, exchange and close
need an open conversation of that tenant, an exchange answer fits its outcomeSchema, and the whole
kind is switched off with the capability."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.kind_steps import KindSteps, types_of
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.event_schema import problems_of, stored_events

OUTCOME_SCHEMA = {
    "type": "object",
    "required": ["services"],
    "properties": {"services": {"type": "array", "minItems": 1}},
}


def start(conversation_id: str) -> dict[str, Any]:
    return {
        "kind": "conversation.start",
        "key": "start",
        "data": {"conversationId": conversation_id, "topic": "Plan the release"},
    }


def exchange(conversation_id: str) -> dict[str, Any]:
    return {
        "kind": "conversation.exchange",
        "key": "exchange-1",
        "data": {
            "conversationId": conversation_id,
            "prompt": "Which services?",
            "outcomeSchema": OUTCOME_SCHEMA,
        },
    }


def close(conversation_id: str) -> dict[str, Any]:
    return {"kind": "conversation.close", "key": "close", "data": {"conversationId": conversation_id}}


@pytest.fixture
def steps(environment: None, dynamodb: Any, table_name: str) -> Iterator[KindSteps]:
    yield KindSteps(WorkflowHarness())
    assert problems_of(stored_events(dynamodb, table_name)) == []


@pytest.fixture
def conversation_id() -> str:
    return f"conv-{uuid.uuid4().hex[:8]}"


def conversation_item(dynamodb: Any, table_name: str, tenant: str, conversation_id: str) -> dict[str, str]:
    item = dynamodb.get_item(
        TableName=table_name,
        ConsistentRead=True,
        Key={"pk": {"S": f"TENANT#{tenant}#CONV#{conversation_id}"}, "sk": {"S": "CONV"}},
    ).get("Item", {})
    return {name: value["S"] for name, value in item.items()}


def test_a_conversation_start_exchange_close(
    steps: KindSteps, conversation_id: str, dynamodb: Any, table_name: str
) -> None:
    # Given a started conversation
    run, outcome = steps.suspend(start(conversation_id))
    assert outcome["status"] == "requested"
    assert steps.snapshot(run.run_id)[1]["status"] == "waiting-input"
    assert conversation_item(dynamodb, table_name, "default", conversation_id)["status"] == "open"
    assert steps.resolve(run.run_id, "Interrupt", {"accepted": True})[0] == 200
    assert steps.output_of(run) == {"accepted": True}
    # When an exchange is answered outside its outcomeSchema, Then 400 with the failing path
    turn, _ = steps.suspend(exchange(conversation_id))
    status, problem = steps.resolve(turn.run_id, "Interrupt", {"services": []})
    assert (status, problem["code"], problem["path"]) == (400, "validation_error", "resumeValue.services")
    # When it is answered well, Then the execution goes on with the answer
    assert steps.resolve(turn.run_id, "Interrupt", {"services": ["api"]})[0] == 200
    assert steps.output_of(turn) == {"services": ["api"]}
    # When the conversation is closed and the close resolved, Then it is closed
    end, _ = steps.suspend(close(conversation_id))
    assert conversation_item(dynamodb, table_name, "default", conversation_id)["status"] == "open"
    assert steps.resolve(end.run_id, "Interrupt", {"summary": "done"})[0] == 200
    assert conversation_item(dynamodb, table_name, "default", conversation_id)["status"] == "closed"
    # And each run logged its requested and resolved events, in both modes
    for each in (run, turn, end):
        assert types_of(steps.events(each.run_id, "updates")) == ["interrupt.requested", "interrupt.resolved"]
        assert types_of(steps.events(each.run_id, "debug")) == ["interrupt.requested", "interrupt.resolved"]
    # And an exchange after the close fails its task: the conversation is no longer open
    late, outcome = steps.suspend(exchange(conversation_id))
    assert outcome["status"] == "rejected"
    assert steps.failure_of(late) == "ConversationNotOpen"


def test_starting_a_conversation_twice_fails_the_second_task(steps: KindSteps, conversation_id: str) -> None:
    # Given a conversation started by one run
    first, _ = steps.suspend(start(conversation_id))
    # When another run of the same tenant starts the same conversationId
    second, outcome = steps.suspend(start(conversation_id))
    # Then its task fails with ConversationAlreadyStarted, and nothing of it was recorded
    assert outcome["status"] == "rejected"
    assert steps.failure_of(second) == "ConversationAlreadyStarted"
    assert steps.snapshot(second.run_id)[0] == 404
    assert steps.snapshot(first.run_id)[1]["status"] == "waiting-input"


def test_conversation_ids_are_per_tenant(steps: KindSteps, conversation_id: str) -> None:
    # Given tenant acme's open conversation
    steps.suspend(start(conversation_id), tenant="acme")
    # When tenant globex exchanges on it, Then that task fails: globex has no such open conversation
    run, outcome = steps.suspend(exchange(conversation_id), tenant="globex")
    assert outcome["status"] == "rejected"
    assert steps.failure_of(run) == "ConversationNotOpen"
    # And globex may start a conversation of the same id for itself
    _, outcome = steps.suspend(start(conversation_id), tenant="globex")
    assert outcome["status"] == "requested"


def test_close_without_an_open_conversation_fails(steps: KindSteps, conversation_id: str) -> None:
    run, outcome = steps.suspend(close(conversation_id))
    assert outcome["status"] == "rejected"
    assert steps.failure_of(run) == "ConversationNotOpen"


def test_capability_off_fails_every_conversation_kind(
    steps: KindSteps, conversation_id: str, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    # Given a host with the conversation capability switched off
    monkeypatch.setenv("CONVERSATION_CAPABILITY", "off")
    from waitgate.wiring import settings

    settings.settings.cache_clear()
    request.addfinalizer(settings.settings.cache_clear)  # no stale settings for later tests
    for interrupt in (start(conversation_id), exchange(conversation_id), close(conversation_id)):
        # When a workflow asks for a conversation interrupt
        run, outcome = steps.suspend(interrupt)
        # Then the task fails with CapabilityNotSupported, which a Catch can match
        assert outcome["status"] == "rejected"
        assert steps.failure_of(run) == "CapabilityNotSupported"
    # And other kinds still work
    _, outcome = steps.suspend({"kind": "custom", "key": "k", "data": {"customKind": "x"}})
    assert outcome["status"] == "requested"
