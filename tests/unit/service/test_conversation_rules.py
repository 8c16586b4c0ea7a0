"""Conversations on in-memory ports: a conversationId is started once per tenant, exchanged on and
closed only while open, and a resolved close closes it; each refusal fails the task by name."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.service.world import RUN, World
from waitgate.errors import ValidationFailedError
from waitgate.run.records import ConversationRef, RunRef

ACME = RunRef("acme", "run-2")


def start(conversation_id: str = "c-1", key: str = "start") -> dict[str, Any]:
    return {"kind": "conversation.start", "key": key, "data": {"conversationId": conversation_id}}


def exchange(conversation_id: str = "c-1", key: str = "exchange") -> dict[str, Any]:
    return {
        "kind": "conversation.exchange",
        "key": key,
        "data": {
            "conversationId": conversation_id,
            "prompt": "Which services?",
            "outcomeSchema": {"type": "object", "required": ["services"]},
        },
    }


def close(conversation_id: str = "c-1", key: str = "close") -> dict[str, Any]:
    return {"kind": "conversation.close", "key": key, "data": {"conversationId": conversation_id}}


@pytest.fixture
def world() -> World:
    return World()


def refusal(world: World, token: str) -> str:
    """The error name the task was failed with."""
    [(_, error, _)] = [failure for failure in world.workflow.failures if failure[0] == token]
    return error


def conversation(world: World, tenant: str = "default", conversation_id: str = "c-1") -> dict[str, str]:
    return world.store.guarded.get(ConversationRef(tenant, conversation_id), {})


def test_a_conversation_is_started_exchanged_on_and_closed(world: World) -> None:
    # Given a started conversation
    assert world.request(start()).status == "requested"
    assert conversation(world) == {
        "tenantId": "default",
        "conversationId": "c-1",
        "status": "open",
        "runId": "run-1",
        "startedAt": "2026-11-30T10:00:00.000Z",
    }
    world.resolve({"ok": True})
    # When an exchange is asked and answered within its outcomeSchema
    assert world.request(exchange(), token="task-2").status == "requested"
    world.resolve({"services": ["api"]})
    # And a close is asked and resolved
    assert world.request(close(), token="task-3").status == "requested"
    assert conversation(world)["status"] == "open"  # asking to close closes nothing yet
    world.clock.advance(seconds=5)
    world.resolve({"summary": "done"})
    # Then the conversation is closed, when the close was resolved
    closed = conversation(world)
    assert (closed["status"], closed["closedAt"]) == ("closed", "2026-11-30T10:00:05.000Z")
    assert world.workflow.failures == []


def test_an_exchange_answer_outside_its_outcome_schema_is_400(world: World) -> None:
    world.request(start())
    world.resolve({})
    world.request(exchange(), token="task-2")
    with pytest.raises(ValidationFailedError):
        world.resolve({"other": 1})
    assert world.interrupt().status == "pending"


def test_a_conversation_id_is_started_once_per_tenant(world: World) -> None:
    # Given c-1 started by a run of the default tenant
    world.request(start())
    # When another run of that tenant starts c-1, Then its task fails by name and nothing is recorded
    other = RunRef("default", "run-9")
    assert world.request(start(), run=other, token="task-9").status == "rejected"
    assert refusal(world, "task-9") == "ConversationAlreadyStarted"
    assert other not in world.store.snapshots
    # And acme may start its own c-1
    assert world.request(start(), run=ACME, token="task-acme").status == "requested"
    assert conversation(world, "acme")["runId"] == "run-2"


def test_a_closed_conversation_cannot_be_started_again(world: World) -> None:
    world.request(start())
    world.resolve({})
    world.request(close(), token="task-2")
    world.resolve({})
    assert world.request(start(key="restart"), token="task-3").status == "rejected"
    assert refusal(world, "task-3") == "ConversationAlreadyStarted"


@pytest.mark.parametrize("kind", [exchange, close])
def test_exchange_and_close_need_a_started_conversation(world: World, kind: Any) -> None:
    assert world.request(kind()).status == "rejected"
    assert refusal(world, "task-1") == "ConversationNotOpen"
    assert RUN not in world.store.snapshots and world.store.commits == 0


@pytest.mark.parametrize("kind", [exchange, close])
def test_exchange_and_close_need_it_still_open(world: World, kind: Any) -> None:
    # Given c-1 started and closed
    world.request(start())
    world.resolve({})
    world.request(close(), token="task-2")
    world.resolve({})
    # Then neither an exchange nor a second close is accepted
    assert world.request(kind(key="late"), token="task-3").status == "rejected"
    assert refusal(world, "task-3") == "ConversationNotOpen"


def test_another_tenants_open_conversation_is_not_open_for_this_one(world: World) -> None:
    world.request(start(), run=ACME, token="task-acme")
    assert world.request(exchange()).status == "rejected"
    assert refusal(world, "task-1") == "ConversationNotOpen"


def test_a_close_asked_twice_while_open_closes_once(world: World) -> None:
    # Given two closes of c-1 asked at two nodes while it was open
    world.request(start())
    world.resolve({})
    world.request(close(key="close-a"), node="A", token="task-a")
    world.request(close(key="close-b"), node="B", token="task-b")
    # When both are resolved, Then the conversation is closed, and the second leaves it closed
    world.resolve({}, node="A")
    world.clock.advance(seconds=1)
    world.resolve({}, node="B")
    assert conversation(world)["status"] == "closed"


@pytest.mark.parametrize("kind", [start, exchange, close])
def test_with_the_capability_off_every_conversation_kind_fails(world: World, kind: Any) -> None:
    world.conversation_capability = False
    assert world.request(kind()).status == "rejected"
    assert refusal(world, "task-1") == "CapabilityNotSupported"
    assert world.store.commits == 0


def test_other_kinds_need_no_conversation(world: World) -> None:
    world.conversation_capability = False
    assert world.request().status == "requested"
    assert not any(isinstance(subject, ConversationRef) for subject in world.store.guarded)
