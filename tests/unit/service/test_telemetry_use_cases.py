"""What the use cases count (waitgate.run.telemetry) and the ids they correlate, on in-memory ports with a
recording Telemetry: one fact per thing that happened, dimensions from closed sets, never a token."""

from __future__ import annotations

import json

import pytest

from tests.unit.service.world import ACCEPT, ALICE, APPROVAL, CUSTOM, RUN, World, with_data
from waitgate.errors import DeliveryFailedError
from waitgate.run.identity import Caller
from waitgate.run.telemetry import (
    Cancelled,
    Correlation,
    Decided,
    Delivered,
    Expired,
    Notified,
    Requested,
    TokenRefused,
    Voted,
    points_of,
)
from waitgate.service.deliver_resolution import deliver_undelivered
from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run

BOB = Caller(principal="bob", tenant_id="default", via="jwt")


@pytest.fixture
def world() -> World:
    return World()


def test_a_decided_approval_counts_its_request_vote_decision_and_delivery(world: World) -> None:
    # Given an approval requested, and 90 seconds later alice's accept
    world.request(APPROVAL)
    world.clock.advance(seconds=90)
    world.resolve(ACCEPT)
    # Then the facts, in order: requested, her vote, the decision after 90 s, the inline delivery
    assert world.telemetry.facts == [
        Requested("approval", "requested", "default"),
        Voted("approval", "accept", "default"),
        Decided("approval", "accept", 90_000.0, "default"),
        Delivered("inline", "default"),
    ]
    # And the ids the request's lines carry end with the interrupt's own
    interrupt_id = world.interrupt().interrupt_id
    expected = Correlation("run-1", "Gate", interrupt_id, "approval", "default")
    assert world.telemetry.correlations[-1] == expected


def test_a_quorum_vote_that_does_not_decide_is_a_vote_alone(world: World) -> None:
    world.request(with_data(APPROVAL, requiredApprovals=2))
    world.resolve(ACCEPT)
    assert world.telemetry.of(Voted) == [Voted("approval", "accept", "default")]
    assert world.telemetry.of(Decided) == []
    world.resolve(ACCEPT, caller=BOB)
    assert [fact.outcome for fact in world.telemetry.of(Decided)] == ["accept"]


def test_a_rejected_payload_is_counted_without_trusting_its_kind(world: World) -> None:
    world.request({"kind": "<script>", "key": "k", "data": {}})
    assert world.telemetry.of(Requested) == [Requested("<script>", "rejected", "default")]
    (point,) = world.telemetry.points()
    assert dict(point.dimensions) == {"kind": "other", "outcome": "rejected"}


def test_a_custom_answer_is_answered_and_a_deadline_is_an_expiry(world: World) -> None:
    world.request(CUSTOM, node="Answered")
    world.resolve({"label": "printed"}, node="Answered")
    assert [fact.outcome for fact in world.telemetry.of(Decided)] == ["answered"]
    world.request({**CUSTOM, "key": "late", "timeoutMs": 1000}, node="Late", token="task-2")
    world.clock.advance(seconds=1)
    late = world.interrupt("Late")
    assert expire_interrupt(ExpiryRequest(RUN, "Late", late.interrupt_id), world.delivery()) == "expired"
    assert world.telemetry.of(Expired) == [Expired("custom", "default")]
    assert world.telemetry.of(Delivered)[-1] == Delivered("inline", "default")


def test_deliveries_are_counted_by_how_they_went(world: World) -> None:
    # Given a resolution whose inline send was throttled (failed), then delivered by the outbox
    world.request(CUSTOM)
    world.workflow.unavailable.add("task-1")
    world.resolve({"label": "printed"})
    world.workflow.unavailable.clear()
    record = world.interrupt()
    delivered = deliver_undelivered(record.run, record.node_id, record.interrupt_id, world.delivery())
    assert delivered == "delivered"
    # And another whose task was gone
    world.request({**CUSTOM, "key": "gone"}, node="Gone", token="task-2")
    world.workflow.gone.add("task-2")
    world.resolve({"label": "printed"}, node="Gone")
    assert [fact.outcome for fact in world.telemetry.of(Delivered)] == ["failed", "outbox", "gone"]


def test_an_outbox_send_that_fails_is_counted_and_still_raised(world: World) -> None:
    world.request(CUSTOM)
    world.workflow.unavailable.add("task-1")
    world.resolve({"label": "printed"})
    record = world.interrupt()
    with pytest.raises(DeliveryFailedError):
        deliver_undelivered(record.run, record.node_id, record.interrupt_id, world.delivery())
    assert [fact.outcome for fact in world.telemetry.of(Delivered)] == ["failed", "failed"]


def test_each_notice_on_the_topic_is_counted_and_a_run_end_cancels(world: World) -> None:
    world.notifying = True
    world.request(with_data(APPROVAL, approversList=["alice", "bob"]))
    assert world.telemetry.of(Notified) == [Notified("topic", "sent", "default")] * 2
    end_run(RUN, "cancelled", "ABORTED", LifecycleDependencies(world.store, world.index, world.clock,
                                                                world.telemetry))  # fmt: skip
    assert world.telemetry.of(Cancelled) == [Cancelled("approval", "default")]


def test_no_fact_or_correlation_holds_a_token_a_link_or_a_value(world: World) -> None:
    world.notifying = True
    world.request(with_data(APPROVAL, approversList=["alice"]), token="task-secret-token")
    world.resolve({**ACCEPT, "feedback": "a private comment"}, caller=ALICE)
    written = json.dumps([repr(f) for f in world.telemetry.facts + world.telemetry.correlations])
    assert "task-secret-token" not in written and "a private comment" not in written
    assert "ow2." not in written and "https://" not in written


def test_each_fact_is_one_metric_with_few_dimensions_and_the_tenant_apart() -> None:
    (resolved, waited) = points_of(Decided("approval", "accept", 1500.0, "acme"))
    assert resolved.name == "InterruptsResolved"
    assert dict(resolved.dimensions) == {"kind": "approval", "outcome": "accept"}
    assert (waited.name, waited.unit, waited.value) == ("TimeToDecision", "Milliseconds", 1500.0)
    assert waited.high_resolution and waited.rollup and dict(waited.dimensions) == {"kind": "approval"}
    assert resolved.tenant_id == waited.tenant_id == "acme"
    (refused,) = points_of(TokenRefused(410))
    assert (refused.name, dict(refused.dimensions)) == ("TokenRefusals", {"outcome": "410"})
    assert refused.tenant_id == ""
    (vote,) = points_of(Voted("approval", "something-else"))
    assert dict(vote.dimensions)["outcome"] == "other"
