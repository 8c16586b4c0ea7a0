"""Acknowledge, then decide: a signed click is checked and queued (the parsed click alone) and Slack
is answered; the decision is the Slack decider's, from the queue. The queue delivers at least once,
so a click handed over again decides nothing twice."""

from __future__ import annotations

import pytest

from tests.unit.service.slack_world import SlackWorld, approvers_world
from tests.unit.service.world import ACCEPT, APPROVAL, RUN, with_data
from waitgate.errors import TemporarilyUnavailableError, UnauthorizedError
from waitgate.run.identity import Caller
from waitgate.run.telemetry import Decided, Voted
from waitgate.service.slack_acknowledge import acknowledge
from waitgate.service.slack_interaction import decide_queued


@pytest.fixture
def world() -> SlackWorld:
    return approvers_world()


def test_the_acknowledgement_queues_the_click_and_decides_nothing(world: SlackWorld) -> None:
    # When alice's Accept is acknowledged
    click = acknowledge(world.click("accept", "U0ALICE"), world.acknowledging())
    # Then one click waits on the queue, naming her and the interrupt, and nothing was decided yet
    assert click is not None and click.user_id == "U0ALICE"
    (queued,) = world.clicks.bodies
    assert world.interrupt().status == "pending" and not world.messages.told
    assert "U0ALICE" in queued and world.interrupt().interrupt_id in queued
    # And the decider decides it: alice accepted, nobody needs telling
    (document,) = world.clicks.take()
    assert decide_queued(document, world.slack()) is None
    assert world.interrupt().status == "resolved"


def test_a_click_the_queue_hands_over_again_is_decided_once(world: SlackWorld) -> None:
    acknowledge(world.click("accept", "U0ALICE"), world.acknowledging())
    (document,) = world.clicks.take()
    # When the queue delivers the same click twice (a decider that timed out after resolving)
    first = decide_queued(document, world.slack())
    again = decide_queued(document, world.slack())
    # Then it resolved once, and the repeat is the same answer (nothing to tell her)
    assert first is None and again is None and not world.messages.told
    assert len(world.telemetry.of(Decided)) == 1
    assert world.interrupt().resume_value["decidedBy"] == "alice"  # type: ignore[index]


def test_a_vote_the_queue_hands_over_again_counts_once() -> None:
    world = approvers_world()
    world.store.interrupts[(RUN, "Gate")] = world.interrupt().__class__(
        **{
            **world.interrupt().__dict__,
            "payload": with_data(APPROVAL, approversList=["alice", "carol"], requiredApprovals=2),
        }
    )
    acknowledge(world.click("accept", "U0ALICE"), world.acknowledging())
    (document,) = world.clicks.take()
    replies = [decide_queued(document, world.slack()) for _ in range(3)]
    assert len(world.interrupt().votes) == 1 and len(world.telemetry.of(Voted)) == 1
    assert all(reply is not None and "recorded" in reply for reply in replies)
    assert "already voted" not in " ".join(text for *_, text in world.messages.told)


def test_a_click_that_lost_the_race_is_told_so_again_when_handed_over_again(world: SlackWorld) -> None:
    # Given alice's Accept queued, and carol deciding before the decider takes it
    acknowledge(world.click("accept", "U0ALICE"), world.acknowledging())
    (document,) = world.clicks.take()
    world.resolve(ACCEPT, caller=Caller(principal="carol", tenant_id="default", via="jwt"))
    # When the queue hands alice's click over twice: her 409, kept under the click's key, then its replay
    first = decide_queued(document, world.slack())
    (kept,) = world.store.answers.values()
    again = decide_queued(document, world.slack())
    # Then both tell her it was decided already (the replayed answer says its code as the first did)
    assert first == again == "This request was already decided; your click changed nothing."
    assert kept.problem is not None and kept.problem.code == "interrupt_already_resolved"
    assert world.interrupt().resume_value["decidedBy"] == "carol"  # type: ignore[index]


def test_what_is_refused_or_no_click_queues_nothing(world: SlackWorld) -> None:
    with pytest.raises(UnauthorizedError):
        acknowledge(world.click("accept", "U0ALICE", secret="another-secret"), world.acknowledging())
    assert acknowledge(world.signed(b"payload=%7B%7D"), world.acknowledging()) is None
    assert not world.clicks.bodies


def test_a_queue_that_does_not_take_the_click_is_unavailable_and_nothing_is_queued(world: SlackWorld) -> None:
    world.clicks.refusing = True
    with pytest.raises(TemporarilyUnavailableError):
        acknowledge(world.click("accept", "U0ALICE"), world.acknowledging())
    assert not world.clicks.bodies and world.interrupt().status == "pending"


def test_a_click_whose_tenant_lost_its_slack_app_before_the_decision_is_dropped(world: SlackWorld) -> None:
    acknowledge(world.click("accept", "U0ALICE"), world.acknowledging())
    (document,) = world.clicks.take()
    world.workspace = world.workspace.__class__("elsewhere", bot_token="x", signing_secret="y")
    assert decide_queued(document, world.slack()) is None
    assert world.interrupt().status == "pending" and not world.messages.told


@pytest.mark.parametrize("document", [None, "accept", {"v": "1"}, {"v": "9", "team": "T0TEAM"}])
def test_a_queued_document_that_is_no_click_is_dropped(world: SlackWorld, document: object) -> None:
    assert decide_queued(document, world.slack()) is None
    assert world.interrupt().status == "pending" and not world.messages.told
