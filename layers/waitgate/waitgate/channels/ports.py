"""The ports of the channels (docs/channels.md): where a person is reached, a channel that sends, what was
sent, the Slack messages after they were posted, the tenants' Slack apps, the click queue and Slack's
signature."""

from __future__ import annotations

from typing import Protocol

from waitgate.channels.contacts import ChannelName, ContactPoints
from waitgate.channels.message_facts import MessageFacts
from waitgate.channels.sent_messages import SentMessage, SlackWorkspace
from waitgate.run.records import RunRef


class Contacts(Protocol):
    """Where each principal of a tenant can be reached (the directory's contact points)."""

    def contact_points(self, tenant_id: str, principal: str) -> ContactPoints: ...

    def principal_of_slack_user(self, tenant_id: str, slack_user: str) -> str | None:
        """The principal whose contact point is this Slack member id, or None."""
        ...


class Channel(Protocol):
    """A way to reach a person (e-mail, Slack): it renders the message and sends it."""

    @property
    def name(self) -> ChannelName: ...

    def unavailable_reason(self, tenant_id: str) -> str | None:
        """Why this host cannot use the channel for the tenant (not configured), or None."""
        ...

    def send(self, facts: MessageFacts, address: str) -> SentMessage:
        """Send one message; DeliveryFailedError when the channel did not take it (retry later)."""
        ...


class SentMessages(Protocol):
    """The ledger of what the channels sent, per interrupt."""

    def find(
        self,
        run: RunRef,
        node_id: str,
        interrupt_id: str,
        channel: ChannelName,
        recipient: str,
        notice_id: str,
    ) -> SentMessage | None:
        """What the channel sent for this notice (a request or a reminder) to the recipient, if anything."""
        ...

    def record(self, run: RunRef, node_id: str, interrupt_id: str, message: SentMessage) -> None: ...

    def of_interrupt(
        self, run: RunRef, node_id: str, interrupt_id: str, channel: ChannelName
    ) -> tuple[SentMessage, ...]: ...


class SlackMessages(Protocol):
    """What is done to Slack messages after they were posted."""

    def update(self, facts: MessageFacts, message: SentMessage) -> None:
        """Replace the message with what `facts` say now; DeliveryFailedError when Slack did not."""
        ...

    def tell(self, workspace: SlackWorkspace, slack_channel: str, slack_user: str, text: str) -> None:
        """An ephemeral message only that user sees; DeliveryFailedError when Slack did not take it."""
        ...


class SlackWorkspaces(Protocol):
    def workspace(self, tenant_id: str) -> SlackWorkspace | None:
        """The tenant's Slack app (bot token, signing secret), or None when it has none."""
        ...


class ClickQueue(Protocol):
    """Where an acknowledged Slack click waits for its decision (docs/channels.md, "A click")."""

    def put(self, document: dict[str, str]) -> None:
        """Queued; TemporarilyUnavailableError when the queue did not take it (nothing was queued)."""
        ...


class SlackSignatures(Protocol):
    def is_valid(
        self, signing_secret: str, body: bytes, timestamp: str | None, signature: str | None
    ) -> bool:
        """Slack's v0 signature of the raw `body` at `timestamp` holds, within 5 minutes of now (False,
        never an error, for whatever the headers or the body hold)."""
        ...
