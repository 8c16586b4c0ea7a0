"""After a decision, every Slack message of the interrupt is updated; a pending one is left alone."""

from __future__ import annotations

import pytest

from tests.fakes.channels import MemorySentMessages, RecordingSlackMessages
from tests.unit.service.world import ACCEPT, APPROVAL, RUN, World, with_data
from waitgate.channels.sent_messages import SentMessage
from waitgate.errors import DeliveryFailedError
from waitgate.service.refresh_slack_messages import RefreshDependencies, refresh_slack_messages


@pytest.fixture
def world() -> World:
    world = World()
    world.request(with_data(APPROVAL, approversList=["alice", "ben"]))
    return world


def posted(world: World) -> tuple[MemorySentMessages, str]:
    sent = MemorySentMessages()
    interrupt_id = world.interrupt().interrupt_id
    for recipient in ("alice", "ben"):
        sent.record(
            RUN, "Gate", interrupt_id, SentMessage("slack", recipient, f"1.{recipient}", "D1", "wf", "Ship?")
        )
    return sent, interrupt_id


def test_every_message_of_a_decided_interrupt_says_who_decided(world: World) -> None:
    sent, interrupt_id = posted(world)
    messages = RecordingSlackMessages()
    deps = RefreshDependencies(world.store, sent, messages)
    assert refresh_slack_messages(RUN, "Gate", interrupt_id, deps) == 0  # still pending
    world.resolve(ACCEPT)
    assert refresh_slack_messages(RUN, "Gate", interrupt_id, deps) == 2
    assert {(m.recipient, f.decided_by, f.status) for f, m in messages.updates} == {
        ("alice", ("alice",), "resolved"),
        ("ben", ("alice",), "resolved"),
    }


def test_a_slack_that_refuses_an_update_is_retried(world: World) -> None:
    sent, interrupt_id = posted(world)
    world.resolve(ACCEPT)
    with pytest.raises(DeliveryFailedError):
        refresh_slack_messages(
            RUN,
            "Gate",
            interrupt_id,
            RefreshDependencies(world.store, sent, RecordingSlackMessages(refusing=True)),
        )
