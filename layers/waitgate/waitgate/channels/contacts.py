"""A principal's contact points in one tenant: an e-mail address and a Slack user id.

Checked when they are set (`waitgate directory set-contact`), so a deliverer never has to wonder
whether an address is one. The tenant's Slack workspace is the tenant's own (its secret), not the
principal's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from waitgate.errors import ValidationFailedError

ChannelName = Literal["email", "slack"]
CHANNELS: tuple[ChannelName, ...] = ("email", "slack")
_EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f]{1,64}@[A-Za-z0-9.-]{1,252}\.[A-Za-z0-9-]{2,63}")
_SLACK_USER = re.compile(r"[UW][A-Z0-9]{2,20}")


@dataclass(frozen=True)
class ContactPoints:
    email: str | None = None
    slack_user: str | None = None

    def address(self, channel: ChannelName) -> str | None:
        """Where `channel` reaches the principal, or None when it cannot."""
        return self.email if channel == "email" else self.slack_user

    @property
    def channels(self) -> tuple[ChannelName, ...]:
        return tuple(channel for channel in CHANNELS if self.address(channel))


def checked_email(value: str) -> str:
    """An address one mailbox has (`local@domain.tld`, at most 254 characters); 400 otherwise."""
    text = value.strip()
    if len(text) > 254 or not _EMAIL.fullmatch(text):
        raise ValidationFailedError(f"{value[:80]!r} is not an e-mail address.", path="email")
    return text


def checked_slack_user(value: str) -> str:
    """A Slack member id (U… or W…, as Slack shows it under "Copy member ID"); 400 otherwise."""
    text = value.strip()
    if not _SLACK_USER.fullmatch(text):
        raise ValidationFailedError(
            f"{value[:40]!r} is not a Slack member id (like U024BE7LH).", path="slackUser"
        )
    return text


class NoContacts:
    """A host without a directory: nobody has a contact point, no Slack member is anyone."""

    def contact_points(self, tenant_id: str, principal: str) -> ContactPoints:
        return ContactPoints()

    def principal_of_slack_user(self, tenant_id: str, slack_user: str) -> str | None:
        return None
