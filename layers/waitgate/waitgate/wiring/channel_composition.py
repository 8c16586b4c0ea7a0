"""Builds what notifies people and hears them back: per-recipient notices, contact points, e-mail and
Slack (docs/channels.md), and the reminders of escalation; lazily, once per Lambda instance, as
`composition` does for the parts these share."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from waitgate.run.clock import SystemClock
from waitgate.wiring.composition import (
    approval_config,
    aws_client,
    directory,
    keyring,
    notice_link_settings,
    notifier,
    resolve_dependencies,
    store,
    telemetry,
)
from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.adapters.slack_web_api import SlackWebApi
    from waitgate.channels.ports import Channel, Contacts, SlackWorkspaces
    from waitgate.service.deliver_notice import ChannelDependencies
    from waitgate.service.escalate_interrupt import EscalationDependencies
    from waitgate.service.fresh_link import FreshLinkDependencies
    from waitgate.service.notify import NotificationDependencies
    from waitgate.service.refresh_slack_messages import RefreshDependencies
    from waitgate.service.slack_interaction import SlackDependencies


def notification_dependencies() -> NotificationDependencies | None:
    """Per-recipient notices need a topic and a token secret; without either, nobody is notified."""
    from waitgate.service.notify import NotificationDependencies

    sender = notifier()
    if sender is None or not settings().token_secret_arn:
        return None
    return NotificationDependencies(
        notifier=sender,
        keyring=keyring(),
        directory=directory(),
        ref_kinds=frozenset(settings().ref_kinds),
        links=notice_link_settings(),
        contacts=contacts(),
        store=store(),
        telemetry=telemetry(),
    )


def fresh_link_dependencies() -> FreshLinkDependencies:
    """A fresh link by e-mail (POST /fresh-links): the notices' parts, the contact points, and the
    record of when one was last sent."""
    from waitgate.adapters.dynamodb_fresh_links import DynamoDbFreshLinks
    from waitgate.service.fresh_link import FreshLinkDependencies

    return FreshLinkDependencies(
        store=store(),
        clock=SystemClock(),
        notifications=notification_dependencies(),
        contacts=contacts(),
        sent=DynamoDbFreshLinks(aws_client("dynamodb"), settings().table_name),
        approval=approval_config(),
        telemetry=telemetry(),
    )


def escalation_dependencies() -> EscalationDependencies:
    from waitgate.service.escalate_interrupt import EscalationDependencies

    return EscalationDependencies(
        store=store(), clock=SystemClock(), notifications=notification_dependencies(), telemetry=telemetry()
    )


def contacts() -> Contacts | None:
    """Contact points in the directory table; without one, nobody has any."""
    from waitgate.adapters.dynamodb_contacts import DynamoDbContacts

    name = settings().directory_table_name
    return DynamoDbContacts(aws_client("dynamodb"), name) if name else None


def channel_dependencies() -> ChannelDependencies:
    from waitgate.adapters.dynamodb_sent_messages import DynamoDbSentMessages
    from waitgate.channels.contacts import NoContacts
    from waitgate.service.deliver_notice import ChannelDependencies

    return ChannelDependencies(
        store=store(),
        contacts=contacts() or NoContacts(),
        sent=DynamoDbSentMessages(aws_client("dynamodb"), settings().table_name),
        clock=SystemClock(),
        attempts=settings().notification_attempts,
        telemetry=telemetry(),
    )


@lru_cache(maxsize=1)
def email_channel() -> Channel:
    from waitgate.adapters.ses_email_channel import SesEmailChannel

    configured = settings()
    return SesEmailChannel(aws_client("sesv2"), configured.email_sender, configured.email_configuration_set)


@lru_cache(maxsize=1)
def slack_workspaces() -> SlackWorkspaces:
    from waitgate.adapters.secrets_slack_workspaces import SecretsSlackWorkspaces

    return SecretsSlackWorkspaces(lambda: aws_client("secretsmanager"), settings().slack_secret_prefix)


@lru_cache(maxsize=1)
def slack_web_api() -> SlackWebApi:
    from waitgate.adapters.slack_web_api import SlackWebApi

    return SlackWebApi(slack_workspaces(), settings().slack_api_url)


def refresh_dependencies() -> RefreshDependencies:
    from waitgate.adapters.dynamodb_sent_messages import DynamoDbSentMessages
    from waitgate.service.refresh_slack_messages import RefreshDependencies

    sent = DynamoDbSentMessages(aws_client("dynamodb"), settings().table_name)
    return RefreshDependencies(store=store(), sent=sent, messages=slack_web_api())


def slack_dependencies() -> SlackDependencies:
    """The Slack decider's: the resolve path, the members' principals, the tenants' Slack apps, the
    messages waitgate posted and Slack's Web API for the ephemeral replies."""
    from waitgate.adapters.dynamodb_sent_messages import DynamoDbSentMessages
    from waitgate.channels.contacts import NoContacts
    from waitgate.service.slack_interaction import SlackDependencies

    return SlackDependencies(
        resolve=resolve_dependencies(),
        contacts=contacts() or NoContacts(),
        workspaces=slack_workspaces(),
        messages=slack_web_api(),
        sent=DynamoDbSentMessages(aws_client("dynamodb"), settings().table_name),
    )
