"""A Slack click, decided through the one resolve path: what the Slack decider does with each click
the acknowledgement queued (`slack_acknowledge`; Slack had its 200 already, docs/channels.md).

The click must be from the tenant's workspace; it must be on a message waitgate posted for the
interrupt its button names (the sent-messages record of that conversation and `ts`), with an action
that message offered; the Slack member must be a principal of the tenant (the directory's contact
points) and, as the resolve checks, the member the message reached or an eligible approver (buttons
are an approval's alone). The decision goes through `resolve_answer` like any other — eligibility,
quorum, exactly once — keyed by the click itself (Slack's `action_ts`), so a click the queue delivers
again, or that Slack sent twice, is the same request and resolves nothing twice.
Whoever clicked and did not simply decide is told why, in a message only they see.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from waitgate.channels import slack_replies
from waitgate.channels.click_documents import click_of
from waitgate.channels.message_facts import BUTTON_ACTIONS
from waitgate.channels.ports import Contacts, SentMessages, SlackMessages, SlackWorkspaces
from waitgate.channels.sent_messages import SentMessage, SlackWorkspace
from waitgate.channels.slack_clicks import NotAClickError, SlackClick, offered_on
from waitgate.errors import DeliveryFailedError, WaitgateError
from waitgate.run.identity import Caller, is_own_principal
from waitgate.run.records import IdempotencyRef
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_answer

logger = logging.getLogger(__name__)
OPERATION = "resolveInterruptBySlack"


@dataclass(frozen=True)
class SlackDependencies:
    resolve: ResolveDependencies
    contacts: Contacts
    workspaces: SlackWorkspaces
    messages: SlackMessages
    sent: SentMessages


def decide_queued(document: Any, deps: SlackDependencies) -> str | None:
    """Decide the click a queued document holds (`click_documents`); a document that holds none is
    dropped, said once in the log: deciding it again could not help."""
    try:
        click = click_of(document)
    except NotAClickError:
        logger.warning("not a queued click: dropped")
        return None
    return decide_click(click, deps)


def decide_click(click: SlackClick, deps: SlackDependencies) -> str | None:
    """The reply the clicker was sent (None: none was needed). TemporarilyUnavailableError when what
    the decision reads first (the tenant's Slack app, its messages, the member's principal) could not
    be read: the queue hands the click over again."""
    workspace = deps.workspaces.workspace(click.run.tenant_id)
    if workspace is None:
        logger.warning("the tenant's Slack app is gone: click dropped")
        return None  # its secret was deleted since the click was acknowledged: nobody to tell
    reply = _reply(click, workspace, deps)
    if reply is not None and click.channel_id:
        try:
            deps.messages.tell(workspace, click.channel_id, click.user_id, reply)
        except DeliveryFailedError as error:
            logger.warning(
                "ephemeral reply not sent", extra={"slack_error": error.extensions.get("slack_error")}
            )
    return reply


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
