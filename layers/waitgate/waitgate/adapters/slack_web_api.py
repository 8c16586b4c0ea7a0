"""The Slack channel on the Web API, with the official SDK (`slack_sdk.WebClient`; docs/channels.md).

Each tenant has its own bot token (its secret); the base URL is the host's SLACK_API_URL (Slack's own,
or the local stack's stand-in). A message goes to the recipient's DM (`chat.postMessage` with the
member id as channel), or to the tenant's channel with a mention of the recipient. Every failure is
DeliveryFailedError with Slack's error code (`slack_error`); nothing here logs a token or a message.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from waitgate.channels.contacts import ChannelName
from waitgate.channels.message_facts import MessageFacts
from waitgate.channels.ports import SlackWorkspaces
from waitgate.channels.sent_messages import SentMessage, SlackWorkspace
from waitgate.channels.slack_blocks import fallback_text, message_blocks, message_metadata
from waitgate.errors import DeliveryFailedError

TIMEOUT_SECONDS = 2  # an interaction has 3 s in all: a slow Slack never holds the answer longer


class SlackWebApi:
    def __init__(self, workspaces: SlackWorkspaces, base_url: str) -> None:
        self._workspaces = workspaces
        self._base_url = base_url
        self._clients: dict[str, WebClient] = {}

    @property
    def name(self) -> ChannelName:
        return "slack"

    def unavailable_reason(self, tenant_id: str) -> str | None:
        workspace = self._workspaces.workspace(tenant_id)
        if workspace is None or not workspace.bot_token:
            return f"tenant {tenant_id} has no Slack app configured (its Slack secret)"
        return None

    def send(self, facts: MessageFacts, address: str) -> SentMessage:
        workspace = self._workspace(facts.tenant_id)
        if workspace.channel:  # a shared channel: no personal link where others can see it
            facts = replace(facts, link="")
        blocks = message_blocks(facts)
        text = fallback_text(facts)
        if workspace.channel:  # and say whom it is for
            blocks = [_mention(address), *blocks]
            text = f"<@{address}> {text}"
        answer = self._call(
            workspace,
            "chat_postMessage",
            channel=workspace.channel or address,
            text=text,
            blocks=blocks,
            metadata=message_metadata(facts),
            unfurl_links=False,
            unfurl_media=False,
        )
        return SentMessage(
            channel="slack",
            recipient=facts.recipient,
            message_id=str(answer["ts"]),
            slack_channel=str(answer["channel"]),
            workflow=facts.workflow,
            title=facts.title,
            kind=facts.kind,
            buttons=facts.button_actions,
        )

    def update(self, facts: MessageFacts, message: SentMessage) -> None:
        workspace = self._workspace(facts.tenant_id)
        self._call(
            workspace,
            "chat_update",
            channel=message.slack_channel,
            ts=message.message_id,
            text=fallback_text(facts),
            blocks=message_blocks(facts),
        )

    def tell(self, workspace: SlackWorkspace, slack_channel: str, slack_user: str, text: str) -> None:
        self._call(workspace, "chat_postEphemeral", channel=slack_channel, user=slack_user, text=text)

    def _workspace(self, tenant_id: str) -> SlackWorkspace:
        workspace = self._workspaces.workspace(tenant_id)
        if workspace is None or not workspace.bot_token:
            raise DeliveryFailedError(f"Tenant {tenant_id} has no Slack app.", slack_error="not_configured")
        return workspace

    def _call(self, workspace: SlackWorkspace, method: str, **arguments: Any) -> Any:
        client = self._clients.get(workspace.bot_token)
        if client is None:
            client = WebClient(token=workspace.bot_token, base_url=self._base_url, timeout=TIMEOUT_SECONDS)
            self._clients[workspace.bot_token] = client
        try:
            return getattr(client, method)(**arguments)
        except SlackApiError as error:
            code = str(error.response.get("error") or error.response.status_code)
            raise DeliveryFailedError(f"Slack answered {code}.", slack_error=code) from error
        except (SlackClientError, OSError) as error:  # no answer: refused, timed out, dropped
            raise DeliveryFailedError("Slack did not answer.", slack_error=type(error).__name__) from error


def _mention(slack_user: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": f"For <@{slack_user}>:"}}
