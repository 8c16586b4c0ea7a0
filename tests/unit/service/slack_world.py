"""A host with a Slack app for the Slack use-case tests: the default tenant's workspace, its members'
contact points, the messages waitgate posted (the sent-messages ledger), clicks signed as Slack signs
them, and the clicks queue between the acknowledgement and the decision."""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import replace
from datetime import UTC, datetime

from tests.fakes.channels import (
    MemoryClickQueue,
    MemoryContacts,
    MemoryReplayGuard,
    MemorySentMessages,
    MemoryWorkspaces,
    RecordingSlackMessages,
)
from tests.support.slack_requests import button, click_body
from tests.unit.channels.facts import notice
from tests.unit.service.world import APPROVAL, RUN, World, with_data
from waitgate.adapters.slack_signature import SlackSignatureCheck
from waitgate.channels.message_facts import facts_of
from waitgate.channels.sent_messages import SentMessage, SlackWorkspace
from waitgate.channels.slack_blocks import message_blocks
from waitgate.service.slack_acknowledge import AcknowledgeDependencies, SlackRequest, acknowledge
from waitgate.service.slack_interaction import SlackDependencies, decide_queued

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TEAM = "T0TEAM"
SHARED, TS = "C0RELEASES", "1764496000.000100"  # the tenant's channel, and the message's ts in it


class SlackWorld(World):
    def __init__(self) -> None:
        super().__init__()
        self.clock.moment = datetime.fromtimestamp(int(time.time()), UTC)
        self.contacts = MemoryContacts()
        self.messages = RecordingSlackMessages()
        self.replays = MemoryReplayGuard()
        self.workspace = SlackWorkspace("default", bot_token="xoxb-1", signing_secret=SECRET, team_id=TEAM)
        self.sent = MemorySentMessages()
        self.clicks = MemoryClickQueue()

    def posted(self, channel: str = SHARED, ts: str = TS, **changes: object) -> None:
        """The message waitgate posted for the interrupt (to alice, in the shared channel by default)."""
        record = self.interrupt()
        message = SentMessage(
            "slack",
            "alice",
            ts,
            channel,
            notice_id=f"{channel}:{ts}",
            kind=record.kind,
            buttons=("accept", "reject"),
        )
        self.sent.record(record.run, record.node_id, record.interrupt_id, replace(message, **changes))  # type: ignore[arg-type]

    def acknowledging(self) -> AcknowledgeDependencies:
        return AcknowledgeDependencies(
            workspaces=MemoryWorkspaces(self.workspace),
            signatures=SlackSignatureCheck(self.clock),
            replays=self.replays,
            clicks=self.clicks,
            clock=self.clock,
        )

    def slack(self) -> SlackDependencies:
        return SlackDependencies(
            resolve=self.resolving(),
            contacts=self.contacts,
            workspaces=MemoryWorkspaces(self.workspace),
            messages=self.messages,
            sent=self.sent,
        )

    def answer(self, request: SlackRequest) -> str | None:
        """What the clicker is told: the request acknowledged (UnauthorizedError when it is not), then
        what it queued decided, as the Slack decider decides it."""
        acknowledge(request, self.acknowledging())
        replies = [decide_queued(document, self.slack()) for document in self.clicks.take()]
        assert len(replies) <= 1, "one request queues one click at most"
        return replies[0] if replies else None

    def click(
        self, action: str, user: str, action_ts: str = "1764496920.000001", **signing: object
    ) -> SlackRequest:
        shown = replace(self.interrupt(), status="pending")  # the message as it was posted
        facts = facts_of(shown, notice(run=RUN, node_id="Gate", interrupt_id=shown.interrupt_id))
        pressed = button(message_blocks(facts), f"waitgate:{action}")
        if "value" in signing:
            pressed["value"] = signing.pop("value")
        body = click_body(
            pressed,
            user,
            str(signing.pop("channel", SHARED)),
            str(signing.pop("ts", TS)),
            signing.pop("team", TEAM),  # type: ignore[arg-type]
            action_ts,
        )
        return self.signed(body.encode(), **signing)

    def signed(self, body: bytes, **signing: object) -> SlackRequest:
        """The request Slack sends for `body`: the very bytes signed (v0), with its headers."""
        secret = str(signing.pop("secret", SECRET))
        stamp = int(self.clock.now().timestamp()) - int(signing.pop("age", 0))  # type: ignore[call-overload]
        digest = hmac.new(secret.encode(), f"v0:{stamp}:".encode() + body, hashlib.sha256).hexdigest()
        headers = {"X-Slack-Request-Timestamp": str(stamp), "X-Slack-Signature": f"v0={digest}"}
        return SlackRequest.of(body, headers)


def approvers_world() -> SlackWorld:
    """alice and carol approve, ben is linked but no approver; alice's message is in the shared channel."""
    world = SlackWorld()
    world.contacts.set("alice", slack_user="U0ALICE")
    world.contacts.set("ben", slack_user="U0BEN")
    world.contacts.set("carol", slack_user="U0CAROL")
    world.request(with_data(APPROVAL, approversList=["alice", "carol"]))
    world.posted()
    return world
