"""Delivering a notice by one channel: sent once, skipped with a reason, failed for a retry — each a
debug event of the run; the suspension never depends on it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.fakes.channels import MemoryContacts, MemorySentMessages, RecordingChannel
from tests.unit.service.world import APPROVAL, RUN, World, with_data
from waitgate.errors import DeliveryFailedError
from waitgate.run.notices import REMINDER_KIND, InterruptNotice
from waitgate.service.deliver_notice import ChannelDependencies, deliver_notice
from waitgate.service.notify import NotificationDependencies


class ChannelWorld(World):
    def __init__(self) -> None:
        super().__init__()
        self.notifying = True
        self.contacts = MemoryContacts()
        self.sent = MemorySentMessages()

    def notifications(self) -> NotificationDependencies:
        return replace(super().notifications(), contacts=self.contacts, store=self.store)

    def channels(self) -> ChannelDependencies:
        return ChannelDependencies(self.store, self.contacts, self.sent, self.clock, attempts=3)

    def notice_for(self, recipient: str) -> InterruptNotice:
        (notice,) = [n for n in self.notifier.notices if n.recipient == recipient]
        return notice

    def payloads(self, kind: str) -> list[dict[str, object]]:
        return [event.payload for event in self.log() if event.type == kind]


@pytest.fixture
def world() -> ChannelWorld:
    world = ChannelWorld()
    world.contacts.set("alice", email="alice@example.com", slack_user="U0ALICE")
    world.request(with_data(APPROVAL, approversList=["alice", "ben"]))
    return world


def test_the_notice_names_the_channels_of_the_recipients_contact_points(world: ChannelWorld) -> None:
    assert world.notice_for("alice").channels == ("email", "slack")
    assert world.notice_for("ben").channels == ()
    (skipped,) = world.payloads("notification.skipped")
    assert skipped["recipient"] == "ben" and "no contact point" in str(skipped["reason"])


def test_a_notice_is_sent_once_and_said(world: ChannelWorld) -> None:
    channel = RecordingChannel("email")
    notice = world.notice_for("alice")
    assert deliver_notice(notice, channel, 1, world.channels()) == "sent"
    assert deliver_notice(notice, channel, 2, world.channels()) == "already-sent"
    (sent,) = channel.sent
    assert sent[1] == "alice@example.com" and sent[0].link == notice.link and sent[0].title == "Ship?"
    assert world.payloads("notification.sent") == [
        {
            "nodeId": "Gate",
            "interruptId": notice.interrupt_id,
            "channel": "email",
            "recipient": "alice",
            "attempt": 1,
        }
    ]


def test_a_reminder_is_a_notice_of_its_own_and_is_sent_again(world: ChannelWorld) -> None:
    channel = RecordingChannel("slack")
    first = world.notice_for("alice")
    reminder = replace(first, link=first.link + "-reminded", notice=REMINDER_KIND)
    assert deliver_notice(first, channel, 1, world.channels()) == "sent"
    assert deliver_notice(reminder, channel, 1, world.channels()) == "sent"
    assert deliver_notice(reminder, channel, 2, world.channels()) == "already-sent"
    assert [facts.subject for facts, _ in channel.sent] == [
        "Approval needed: Ship?",
        "Reminder: Approval needed: Ship?",
    ]


def test_a_refusal_is_said_and_raised_for_a_retry_and_the_last_attempt_parks(world: ChannelWorld) -> None:
    channel = RecordingChannel("slack", refusing=True)
    notice = world.notice_for("alice")
    for attempt in (1, 2, 3):
        with pytest.raises(DeliveryFailedError):
            deliver_notice(notice, channel, attempt, world.channels())
    failed = world.payloads("notification.failed")
    assert [(f["attempt"], f["reason"], f["parked"]) for f in failed] == [
        (1, "internal_error", False),
        (2, "internal_error", False),
        (3, "internal_error", True),
    ]
    assert world.interrupt().status == "pending"


def test_unreachable_recipients_and_unconfigured_channels_are_skipped(world: ChannelWorld) -> None:
    ben = world.notice_for("alice").__class__(**{**world.notice_for("alice").__dict__, "recipient": "ben"})
    assert deliver_notice(ben, RecordingChannel("email"), 1, world.channels()) == "skipped"
    unconfigured = RecordingChannel("slack", unavailable="tenant default has no Slack app configured")
    assert deliver_notice(world.notice_for("alice"), unconfigured, 1, world.channels()) == "skipped"
    reasons = [p["reason"] for p in world.payloads("notification.skipped") if p.get("channel")]
    assert reasons == [
        "ben has no email contact point in the directory",
        "tenant default has no Slack app configured",
    ]


def test_a_notice_of_an_interrupt_decided_meanwhile_is_not_sent(world: ChannelWorld) -> None:
    world.resolve({"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"})
    channel = RecordingChannel("email")
    assert deliver_notice(world.notice_for("alice"), channel, 1, world.channels()) == "skipped"
    assert not channel.sent


def test_the_workflow_is_named_from_the_execution_arn() -> None:
    world = ChannelWorld()
    arn = "arn:aws:states:us-east-1:123456789012:execution:waitgate-release:run-1"
    world.request(with_data(APPROVAL, approversList=["alice"]), execution_arn=arn)
    assert world.notifier.notices[0].workflow == "waitgate-release"
    assert RUN.run_id == "run-1"


def test_a_permanent_refusal_is_said_once_and_not_retried(world: ChannelWorld) -> None:
    # Given a channel that refuses for good (SES in the sandbox: MessageRejected, an unverified recipient)
    channel = RecordingChannel("email", refusing_for_good=True)
    # When the notice is delivered on its first attempt
    outcome = deliver_notice(world.notice_for("alice"), channel, 1, world.channels())
    # Then it is not raised for a retry: the failure is said as permanent, and not as parked
    assert outcome == "refused"
    (failed,) = world.payloads("notification.failed")
    assert (failed["reason"], failed["permanent"], failed["parked"]) == ("MessageRejected", True, False)
