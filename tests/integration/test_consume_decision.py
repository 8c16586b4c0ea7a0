"""Consume once: the receipt written by one conditional Put on strict moto, and the use case that
spends only an accepted, action-bound decision of the named interrupt (a run decided on the use-case
world's ports)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.unit.service.world import APPROVAL, RUN, World, with_data
from waitgate.adapters.dynamodb_consumed_decisions import DynamoDbConsumedDecisions
from waitgate.errors import DecisionAlreadyConsumedError, NotFoundError, ValidationFailedError
from waitgate.payloads.action_fingerprint import action_fingerprint
from waitgate.run.identity import Caller
from waitgate.service.consume_decision import ConsumeDependencies, consume

TRANSFER = {"name": "transfer", "args": {"amount": 100}}
AT = "2026-12-03T10:00:00Z"
BOUND = action_fingerprint(TRANSFER)
EXECUTOR = Caller(principal="payments-bot", tenant_id="default", via="jwt")
FINGERPRINT = "sha256:" + "ab" * 32


@pytest.fixture
def consumed(dynamodb: Any, table_name: str) -> DynamoDbConsumedDecisions:
    return DynamoDbConsumedDecisions(dynamodb, table_name)


def test_the_first_consume_is_kept_and_every_later_one_refused(consumed: DynamoDbConsumedDecisions) -> None:
    receipt = {"interruptId": "i-1", "actionFingerprint": FINGERPRINT}
    assert consumed.consume_once(RUN, "i-1", receipt, "me\nkey-1") == receipt
    assert consumed.consume_once(RUN, "i-1", receipt | {"consumedAt": "later"}, "me\nkey-1") == receipt
    assert consumed.consume_once(RUN, "i-1", receipt, "me\nkey-2") is None
    assert consumed.consume_once(RUN, "i-1", receipt, None) is None
    assert consumed.consume_once(RUN, "i-2", receipt, None) == receipt  # another decision


def test_of_concurrent_consumes_exactly_one_is_first(consumed: DynamoDbConsumedDecisions) -> None:
    results: list[object] = []
    start = threading.Barrier(4)

    def consume_one(n: int) -> None:
        start.wait()
        results.append(consumed.consume_once(RUN, "i-race", {"n": n}, f"me\nkey-{n}"))

    threads = [threading.Thread(target=consume_one, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(result is not None for result in results) == 1


def decided(action: str, **members: Any) -> World:
    world = World()
    world.request(with_data(APPROVAL, action=TRANSFER, actions=["accept", "reject", "edit-accept"]))
    world.resolve({"action": action, "decidedAt": AT, **members})
    return world


def spend(world: World, consumed: DynamoDbConsumedDecisions, body: Any, key: str | None = None) -> Any:
    deps = ConsumeDependencies(store=world.store, consumed=consumed, clock=world.clock)
    return consume(RUN, "Gate", body, EXECUTOR, deps, key)


def test_an_accepted_decision_is_spent_once(consumed: DynamoDbConsumedDecisions) -> None:
    world = decided("accept")
    body = {"interruptId": world.interrupt().interrupt_id, "actionFingerprint": BOUND}
    receipt = spend(world, consumed, body, "k-1")
    assert (receipt["consumedBy"], receipt["actionFingerprint"]) == (
        "payments-bot",
        body["actionFingerprint"],
    )
    assert spend(world, consumed, body, "k-1") == receipt  # the same request again: its receipt
    with pytest.raises(DecisionAlreadyConsumedError) as again:
        spend(world, consumed, body, "k-2")
    assert (again.value.status, again.value.code) == (409, "decision_already_consumed")


@pytest.mark.parametrize(
    ("action", "members", "body_of"),
    [
        ("reject", {}, lambda i: {"interruptId": i, "actionFingerprint": BOUND}),
        ("accept", {}, lambda i: {"interruptId": i, "actionFingerprint": FINGERPRINT}),
        ("accept", {}, lambda i: {"interruptId": "another", "actionFingerprint": BOUND}),
        ("edit-accept", {"editedAction": {"name": "transfer", "args": {"amount": 90}}},
         lambda i: {"interruptId": i, "actionFingerprint": BOUND}),
    ],
    ids=["rejected", "another fingerprint", "another interrupt", "the action before the edit"],
)  # fmt: skip
def test_nothing_else_can_be_spent(
    consumed: DynamoDbConsumedDecisions, action: str, members: dict[str, Any], body_of: Any
) -> None:
    world = decided(action, **members)
    with pytest.raises(NotFoundError):
        spend(world, consumed, body_of(world.interrupt().interrupt_id))


@pytest.mark.parametrize(
    "body",
    [[], {"interruptId": "i"}, {"interruptId": "i", "actionFingerprint": ""}, {"interruptId": "i",
     "actionFingerprint": FINGERPRINT, "extra": 1}],
)  # fmt: skip
def test_a_malformed_request_is_a_400(consumed: DynamoDbConsumedDecisions, body: Any) -> None:
    with pytest.raises(ValidationFailedError):
        spend(decided("accept"), consumed, body)
