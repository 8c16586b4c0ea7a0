"""A click in Slack (`POST /channels/slack/interactions`), acknowledged: checked, queued, answered.

Slack wants its 200 within 3 seconds, a cold start included, so this is all the public function does
(the decision is `slack_interaction.decide_click`'s, from the clicks queue; docs/channels.md).
Order: the tenant the request URL names (`?tenant=`, else the default tenant) → that tenant's signing
secret checks Slack's v0 signature over the raw bytes (5 minutes, constant time) → a request seen
before is a replay; any of these failing is 401 and nothing changes, and nothing of the body was
read. Then the body, read bounded (`channels.slack_clicks`): a click of one of our buttons, naming an
interrupt of this tenant, is queued — the parsed click alone (`channels.click_documents`); anything
else signed is acknowledged all the same, with nothing to decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from waitgate.channels.click_documents import click_document
from waitgate.channels.slack_clicks import NotAClickError, SlackClick, parse_click
from waitgate.errors import UnauthorizedError, WaitgateError
from waitgate.run.records import DEFAULT_TENANT, RunRef

if TYPE_CHECKING:
    from waitgate.channels.ports import ClickQueue, SlackSignatures, SlackWorkspaces
    from waitgate.channels.sent_messages import SlackWorkspace
    from waitgate.ports import Clock, ReplayGuard

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
class AcknowledgeDependencies:
    workspaces: SlackWorkspaces
    signatures: SlackSignatures
    replays: ReplayGuard
    clicks: ClickQueue
    clock: Clock


def acknowledge(request: SlackRequest, deps: AcknowledgeDependencies) -> SlackClick | None:
    """The click queued for its decision (None: nothing of ours to decide); UnauthorizedError for a
    request Slack did not sign, or signed long ago, or that was seen before; TemporarilyUnavailableError
    when the queue did not take the click."""
    workspace = _verified(request, deps)
    try:
        click = parse_click(request.body)
    except NotAClickError:
        return None  # signed, but nothing of ours to do (acknowledged all the same)
    if click.run.tenant_id != workspace.tenant_id:
        return None  # a button of another tenant's message cannot be on this tenant's app's
    deps.clicks.put(click_document(click))
    return click


def _verified(request: SlackRequest, deps: AcknowledgeDependencies) -> SlackWorkspace:
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
    expires = deps.clock.now() + REPLAY_WINDOW
    if not deps.replays.first_use(
        f"{workspace.tenant_id}:{request.timestamp}:{request.signature}", int(expires.timestamp())
    ):
        raise refused
    return workspace
