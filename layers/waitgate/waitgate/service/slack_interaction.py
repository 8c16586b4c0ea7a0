"""A click in Slack (`POST /channels/slack/interactions`), answered through the one resolve path.

Order: the tenant the request URL names (`?tenant=`, else the default tenant) → that tenant's signing
secret checks Slack's v0 signature over the raw bytes (5 minutes, constant time) → a request seen
before is a replay; any of these failing is 401 and nothing changes, and nothing of the body was
read. Then the body, read bounded (`channels.slack_clicks`), and the click: the workspace must be the
tenant's; the click must be on a message waitgate posted for the interrupt its button names (the
sent-messages record of that conversation and `ts`), with an action that message offered; the Slack
member must be a principal of the tenant (the directory's contact points) and, as the resolve checks,
the member the message reached or an eligible approver (buttons are an approval's alone). The
decision goes through `resolve_answer` like any other — eligibility, quorum, exactly once — keyed by
the click itself (Slack's `action_ts`), so a delivery Slack retries is the same request and resolves
nothing twice.
Slack is answered 200 at once whatever the click was; whoever clicked and did not simply decide is
told why, in a message only they see.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from waitgate.channels import slack_replies
from waitgate.channels.message_facts import BUTTON_ACTIONS
from waitgate.channels.sent_messages import SentMessage, SlackWorkspace
from waitgate.channels.slack_clicks import NotAClickError, SlackClick, offered_on, parse_click
from waitgate.errors import DeliveryFailedError, UnauthorizedError, WaitgateError
from waitgate.identity import Caller, is_own_principal
from waitgate.ports import (
    Contacts,
    ReplayGuard,
    SentMessages,
    SlackMessages,
    SlackSignatures,
    SlackWorkspaces,
)
from waitgate.records import DEFAULT_TENANT, IdempotencyRef, RunRef
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_answer

logger = logging.getLogger(__name__)
OPERATION = "resolveInterruptBySlack"
REPLAY_WINDOW = timedelta(minutes=10)  # past Slack's 5 minutes either side of the timestamp


@dataclass(frozen=True)
class SlackRequest:
    body: bytes  # the raw body, as signed
    timestamp: str | None  # X-Slack-Request-Timestamp
    signature: str | None  # X-Slack-Signature
    tenant: str = DEFAULT_TENANT  # the request URL's `?tenant=`: whose Slack app is asked

    @classmethod
    def of(cls, body: bytes, headers: Mapping[str, str], tenant: str | None = None) -> SlackRequest:
        lower = {name.lower(): value for name, value in headers.items()}
        return cls(
            body,
            lower.get("x-slack-request-timestamp"),
            lower.get("x-slack-signature"),
            tenant if tenant is not None else DEFAULT_TENANT,
        )


@dataclass(frozen=True)
class SlackDependencies:
    resolve: ResolveDependencies
    contacts: Contacts
    workspaces: SlackWorkspaces
    signatures: SlackSignatures
    replays: ReplayGuard
    messages: SlackMessages
    sent: SentMessages


def answer_interaction(request: SlackRequest, deps: SlackDependencies) -> str | None:
    """The reply the clicker was sent (None: none was needed); UnauthorizedError for a request Slack
    did not sign, or signed long ago, or that was seen before."""
    workspace = _verified(request, deps)
    try:
        click = parse_click(request.body)
    except NotAClickError:
        return None  # signed, but nothing of ours to do (acknowledged all the same)
    if click.run.tenant_id != workspace.tenant_id:
        return None  # a button of another tenant's message cannot be on this tenant's app's
    reply = _reply(click, workspace, deps)
    if reply is not None and click.channel_id:
        try:
            deps.messages.tell(workspace, click.channel_id, click.user_id, reply)
        except DeliveryFailedError as error:
            logger.warning(
                "ephemeral reply not sent", extra={"slack_error": error.extensions.get("slack_error")}
            )
    return reply


def _verified(request: SlackRequest, deps: SlackDependencies) -> SlackWorkspace:
    refused = UnauthorizedError("The Slack request signature is not valid.")
    try:
        tenant = RunRef.parse(request.tenant, "probe").tenant_id
    except WaitgateError as error:
        raise refused from error
    workspace = deps.workspaces.workspace(tenant)
    if workspace is None or not deps.signatures.is_valid(
        workspace.signing_secret, request.body, request.timestamp, request.signature
    ):
        raise refused
    expires = deps.resolve.clock.now() + REPLAY_WINDOW
    if not deps.replays.first_use(
        f"{workspace.tenant_id}:{request.timestamp}:{request.signature}", int(expires.timestamp())
    ):
        raise refused
    return workspace


def _reply(click: SlackClick, workspace: SlackWorkspace, deps: SlackDependencies) -> str | None:
    if workspace.team_id and click.team_id != workspace.team_id:
        return slack_replies.OTHER_WORKSPACE
    if click.opens_page:
        return None  # Slack opened the page's URL itself
    message = offered_on(click, deps.sent.of_interrupt(click.run, click.node_id, click.interrupt_id, "slack"))
    if message is None:
        return slack_replies.NOT_OUR_MESSAGE
    if click.action not in _buttons_of(message, click, deps):
        return slack_replies.NOTHING_TO_DECIDE
    principal = deps.contacts.principal_of_slack_user(workspace.tenant_id, click.user_id)
    if principal is None or is_own_principal(principal):
        return slack_replies.NOT_LINKED
    caller = Caller(principal=principal, tenant_id=workspace.tenant_id, via="slack")
    command = ResolveCommand(
        run=click.run,
        node_id=click.node_id,
        resume_value={"action": click.action, "decidedAt": click.decided_at},
        caller=caller,
        interrupt_id=click.interrupt_id,
        surface="token",  # pinned to the button's interrupt, like a signed link
    )
    try:
        return slack_replies.reply_to(resolve_answer(command, _key(click, caller), deps.resolve))
    except WaitgateError as error:
        return slack_replies.refusal_reply(error)


def _buttons_of(message: SentMessage, click: SlackClick, deps: SlackDependencies) -> tuple[str, ...]:
    """The actions the message's buttons offered: as recorded, or, for a message recorded before
    waitgate kept them, what the interrupt gave its message (an approval's accept and reject)."""
    if message.buttons is not None:
        return message.buttons
    record = deps.resolve.store.load(click.run, click.node_id).interrupt
    if record is None or record.interrupt_id != click.interrupt_id or record.kind != "approval":
        return ()
    actions = record.data.get("actions", [])
    return tuple(action for action in BUTTON_ACTIONS if isinstance(actions, list) and action in actions)


def _key(click: SlackClick, caller: Caller) -> IdempotencyRef:
    meaning = {"interruptId": click.interrupt_id, "nodeId": click.node_id, "action": click.action}
    canonical = json.dumps(meaning, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return IdempotencyRef(OPERATION, caller.idempotency_identity, click.idempotency_key, fingerprint)
