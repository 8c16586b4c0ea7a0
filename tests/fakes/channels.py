"""In-memory channel ports for unit tests: contact points, a recording channel, the sent-messages
ledger, Slack messages that are updated or told, the tenants' Slack apps, a replay guard and the
clicks queue."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from waitgate.channels.contacts import ChannelName, ContactPoints
from waitgate.channels.message_facts import MessageFacts
from waitgate.channels.sent_messages import SentMessage, SlackWorkspace
from waitgate.errors import DeliveryFailedError, DeliveryRefusedError, TemporarilyUnavailableError
from waitgate.run.records import RunRef


class MemoryContacts:
    def __init__(self) -> None:
        self.points: dict[tuple[str, str], ContactPoints] = {}

    def set(
        self, principal: str, email: str | None = None, slack_user: str | None = None, tenant: str = "default"
    ) -> None:
        self.points[(tenant, principal)] = ContactPoints(email, slack_user)

    def contact_points(self, tenant_id: str, principal: str) -> ContactPoints:
        return self.points.get((tenant_id, principal), ContactPoints())

    def principal_of_slack_user(self, tenant_id: str, slack_user: str) -> str | None:
        for (tenant, principal), points in self.points.items():
            if tenant == tenant_id and points.slack_user == slack_user:
                return principal
        return None


@dataclass
class RecordingChannel:
    """A channel that keeps what it sent; `refusing` makes it answer DeliveryFailedError."""

    channel: ChannelName = "email"
    refusing: bool = False
    refusing_for_good: bool = False  # a permanent refusal (DeliveryRefusedError: SES's MessageRejected)
    unavailable: str | None = None
    sent: list[tuple[MessageFacts, str]] = field(default_factory=list)

    @property
    def name(self) -> ChannelName:
        return self.channel

    def unavailable_reason(self, tenant_id: str) -> str | None:
        return self.unavailable

    def send(self, facts: MessageFacts, address: str) -> SentMessage:
        if self.refusing:
            raise DeliveryFailedError("The channel answered 500.", slack_error="internal_error")
        if self.refusing_for_good:
            raise DeliveryRefusedError("SES answered MessageRejected.", aws_code="MessageRejected")
        self.sent.append((facts, address))
        return SentMessage(
            self.channel, facts.recipient, f"m-{len(self.sent)}", "D1", facts.workflow, facts.title
        )


class MemorySentMessages:
    def __init__(self) -> None:
        self.messages: dict[tuple[RunRef, str, str, str, str, str], SentMessage] = {}

    def find(
        self,
        run: RunRef,
        node_id: str,
        interrupt_id: str,
        channel: ChannelName,
        recipient: str,
        notice_id: str,
    ) -> SentMessage | None:
        return self.messages.get((run, node_id, interrupt_id, channel, recipient, notice_id))

    def record(self, run: RunRef, node_id: str, interrupt_id: str, message: SentMessage) -> None:
        self.messages[(run, node_id, interrupt_id, message.channel, message.recipient, message.notice_id)] = (
            message
        )

    def of_interrupt(
        self, run: RunRef, node_id: str, interrupt_id: str, channel: ChannelName
    ) -> tuple[SentMessage, ...]:
        return tuple(
            m for key, m in self.messages.items() if key[:4] == (run, node_id, interrupt_id, channel)
        )


@dataclass
class RecordingSlackMessages:
    updates: list[tuple[MessageFacts, SentMessage]] = field(default_factory=list)
    told: list[tuple[str, str, str]] = field(default_factory=list)  # (channel, user, text)
    refusing: bool = False

    def update(self, facts: MessageFacts, message: SentMessage) -> None:
        if self.refusing:
            raise DeliveryFailedError("Slack answered ratelimited.", slack_error="ratelimited")
        self.updates.append((facts, message))

    def tell(self, workspace: SlackWorkspace, slack_channel: str, slack_user: str, text: str) -> None:
        self.told.append((slack_channel, slack_user, text))


class MemoryWorkspaces:
    def __init__(self, *workspaces: SlackWorkspace) -> None:
        self._by_tenant = {w.tenant_id: w for w in workspaces}

    def workspace(self, tenant_id: str) -> SlackWorkspace | None:
        return self._by_tenant.get(tenant_id)


class MemoryReplayGuard:
    def __init__(self) -> None:
        self.seen: set[str] = set()

    def first_use(self, key: str, expires_at_epoch: int) -> bool:
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


class MemoryClickQueue:
    """The clicks queue: each document as SQS would hold it (its JSON text), in order."""

    def __init__(self) -> None:
        self.bodies: list[str] = []
        self.refusing = False

    def put(self, document: dict[str, str]) -> None:
        if self.refusing:
            raise TemporarilyUnavailableError("The click could not be taken; send it again.")
        self.bodies.append(json.dumps(document))

    def take(self) -> list[Any]:
        """Every document queued so far, as the decider reads it; the queue is left empty."""
        taken, self.bodies = [json.loads(body) for body in self.bodies], []
        return taken


class MemoryFreshLinks:
    """When a fresh link last went to whom, held to the DynamoDB adapter's rule (one window each)."""

    def __init__(self) -> None:
        self.sent_at: dict[tuple[RunRef, str, str], int] = {}

    def first_in_window(self, run: RunRef, interrupt_id: str, principal: str, now: int, window: int) -> bool:
        last = self.sent_at.get((run, interrupt_id, principal))
        if last is not None and last > now - window:
            return False
        self.sent_at[(run, interrupt_id, principal)] = now
        return True
