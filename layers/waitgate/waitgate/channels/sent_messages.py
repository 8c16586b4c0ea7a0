"""What a channel sent for one interrupt to one recipient: kept, so a redelivered notice is not sent
twice and a decision can update every Slack message of the interrupt."""

from __future__ import annotations

from dataclasses import dataclass, field

from waitgate.channels.contacts import ChannelName


@dataclass(frozen=True)
class SentMessage:
    channel: ChannelName
    recipient: str
    message_id: str  # SES's MessageId, or Slack's `ts`
    slack_channel: str = ""  # the conversation Slack posted into (a DM's D…, or a channel's C…)
    workflow: str = ""
    title: str = ""
    notice_id: str = ""  # the notice it delivered (a request, a reminder): one message per notice
    kind: str = ""  # the interrupt's kind when it was sent
    # The actions its buttons offered (Slack: accept, reject); None for a message recorded before
    # waitgate kept them (then they are what the interrupt's kind and actions gave it).
    buttons: tuple[str, ...] | None = None


@dataclass(frozen=True)
class SlackWorkspace:
    """A tenant's Slack app in its workspace (a secret of its own; docs/channels.md)."""

    tenant_id: str
    bot_token: str = field(repr=False)
    signing_secret: str = field(repr=False)
    team_id: str = ""  # the workspace's T…: clicks from any other workspace are refused
    channel: str = ""  # when set, messages go to this channel (mentioning the recipient), not a DM
