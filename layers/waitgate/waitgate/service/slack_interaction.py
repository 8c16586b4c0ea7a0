"""A click in Slack (`POST /channels/slack/interactions`), answered through the one resolve path.

Order: the tenant the button names → that tenant's signing secret checks Slack's v0 signature (5
minutes, constant time) → a request seen before is a replay; any of these failing is 401 and nothing
changes. Then the click: the workspace must be the tenant's, the Slack member a principal of the
tenant (the directory's contact points), and the decision goes through `resolve_answer` like any
other — eligibility, quorum, exactly once — keyed by the click itself (Slack's `action_ts`), so a
delivery Slack retries is the same request and resolves nothing twice. Slack is answered 200 at once;
whoever clicked and did not simply decide is told why, in a message only they see.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from waitgate.channels import slack_replies
from waitgate.channels.sent_messages import SlackWorkspace
from waitgate.channels.slack_clicks import NotAClickError, SlackClick, claimed_tenant, parse_click
from waitgate.errors import DeliveryFailedError, UnauthorizedError, WaitgateError
from waitgate.identity import Caller
from waitgate.ports import Contacts, ReplayGuard, SlackMessages, SlackSignatures, SlackWorkspaces
from waitgate.records import IdempotencyRef, check_node_id
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_answer

logger = logging.getLogger(__name__)
OPERATION = "resolveInterruptBySlack"
REPLAY_WINDOW = timedelta(minutes=10)  # past Slack's 5 minutes either side of the timestamp
DECISIONS = frozenset({"accept", "reject"})


@dataclass(frozen=True)
class SlackRequest:
    body: str  # the raw body, as signed
    timestamp: str | None  # X-Slack-Request-Timestamp
    signature: str | None  # X-Slack-Signature

    @classmethod
    def of(cls, body: str, headers: Mapping[str, str]) -> SlackRequest:
        lower = {name.lower(): value for name, value in headers.items()}
        return cls(body, lower.get("x-slack-request-timestamp"), lower.get("x-slack-signature"))


@dataclass(frozen=True)
class SlackDependencies:
    resolve: ResolveDependencies
    contacts: Contacts
    workspaces: SlackWorkspaces
    signatures: SlackSignatures
    replays: ReplayGuard
    messages: SlackMessages


def answer_interaction(request: SlackRequest, deps: SlackDependencies) -> str | None:
    """The reply the clicker was sent (None: none was needed); UnauthorizedError for a request Slack
    did not sign, or signed long ago, or that was seen before."""
    workspace = _verified(request, deps)
    try:
        click = parse_click(request.body)
    except NotAClickError:
        return None  # signed, but nothing of ours to do (acknowledged all the same)
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
    tenant = claimed_tenant(request.body)
    workspace = deps.workspaces.workspace(tenant) if tenant else None
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
    principal = deps.contacts.principal_of_slack_user(workspace.tenant_id, click.user_id)
    if principal is None:
        return slack_replies.NOT_LINKED
    if click.action not in DECISIONS:
        return "This button does not decide anything; nothing was recorded."
    caller = Caller(principal=principal, tenant_id=workspace.tenant_id, via="slack")
    command = ResolveCommand(
        run=click.run,
        node_id=check_node_id(click.node_id),
        resume_value={"action": click.action, "decidedAt": click.decided_at},
        caller=caller,
        interrupt_id=click.interrupt_id,
        surface="token",  # pinned to the button's interrupt, like a signed link
    )
    try:
        return slack_replies.reply_to(resolve_answer(command, _key(click, caller), deps.resolve))
    except WaitgateError as error:
        return slack_replies.refusal_reply(error)


def _key(click: SlackClick, caller: Caller) -> IdempotencyRef:
    meaning = {"interruptId": click.interrupt_id, "nodeId": click.node_id, "action": click.action}
    canonical = json.dumps(meaning, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return IdempotencyRef(OPERATION, caller.idempotency_identity, click.idempotency_key, fingerprint)
