"""The channels of the local stack (docs/channels.md, "Locally"): e-mail through SES on moto, Slack
through the Slack Web API stand-in, both ending in the stack's inbox.

Before the template's resources: the Slack stand-in starts, and the template's parameters point the
functions at it (SlackApiUrl), name a local sender (EmailSender) and make retries quick
(NotificationAttempts, NotificationRetryBaseSeconds). After them: SES verifies the sender, and the
default tenant gets its Slack secret (the stand-in's bot token and signing secret).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from local.standins.inbox import InboxLog
from local.standins.slack_api import SlackApp, SlackStandInServer, SlackWebApiStandIn, inbox_line
from local.state.state_dir import StateDir
from local.template.resources import StackContext

if TYPE_CHECKING:
    from local.standins.pumps import Pump

LOCAL_EMAIL_SENDER = "waitgate@example.com"
LOCAL_TENANTS_WITH_SLACK = ("default",)
INTERACTIONS_PATH = "/channels/slack/interactions"


class LocalChannels:
    def __init__(self, state_dir: StateDir) -> None:
        self.app = SlackApp.load_or_create(state_dir.root / "slack-app.json")
        log = self._inbox = InboxLog(state_dir)
        standin = SlackWebApiStandIn(
            self.app, lambda message, updated: log.append([inbox_line(message, updated)])
        )
        self._server = SlackStandInServer(standin, int(os.environ.get("WAITGATE_SLACK_PORT") or 0))
        self._server.start()

    def template_parameters(self) -> dict[str, str]:
        return {
            "SlackApiUrl": self._server.api_url,
            "EmailSender": LOCAL_EMAIL_SENDER,
            "NotificationAttempts": "3",
            "NotificationRetryBaseSeconds": "1",
            # Webhooks out (docs/webhooks-out.md): a receiver on this machine, quick retries.
            "SubscriptionLoopbackHttp": "on",
            "WebhookAttempts": "4",
            "WebhookRetryBaseSeconds": "1",
        }

    def after_resources(self, context: StackContext) -> None:
        context.clients("sesv2").create_email_identity(EmailIdentity=LOCAL_EMAIL_SENDER)
        secrets = context.clients("secretsmanager")
        for tenant in LOCAL_TENANTS_WITH_SLACK:
            secrets.create_secret(
                Name=f"{context.stack_name}/slack/{tenant}", SecretString=self.app.secret_string()
            )

    def description(self, api_url: str) -> dict[str, Any]:
        """local.json's `slack`: what a test or a developer needs to act as Slack."""
        return {
            "apiUrl": self._server.api_url,
            "signingSecret": self.app.signing_secret,
            "teamId": self.app.team_id,  # a click must name this workspace, or it is another's
            "interactionsUrl": api_url.rstrip("/") + INTERACTIONS_PATH,
        }

    def pumps(self, context: StackContext) -> list[Pump]:
        """The SQS pollers of the template's queue mappings (the deliverers) and the sent-mail pump."""
        from local.standins.queue_poller import queue_pumps
        from local.standins.sent_mail import sent_mail_pump

        return [*queue_pumps(context), sent_mail_pump(context.account_id, context.region, self._inbox)]

    def stop(self) -> None:
        self._server.stop()
