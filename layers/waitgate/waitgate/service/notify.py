"""Who is told that an interrupt waits, each with a personal resolve link (after the request commits).

approval: `audience` when given, else the union of the eligibility refs (approversList, members of
approverGroupRefs and holders of approverRoleRefs from the directory, for the advertised ref kinds);
conversation.start: its `participants`; and for any kind, the people the Task input's `notify`
names (principals, members of its groups, holders of its roles: waitgate.run.asked). Another kind without
`notify` names nobody: mint a link for it instead (`POST /runs/{runId}/interrupts/{nodeId}/tokens`).
Approvers an escalation step added (approval, low-confidence) are recipients from that step on
(docs/escalation.md). A failed notice never undoes the request.

Each notice names the channels the recipient's contact points reach (its `channels` attribute: the
e-mail and Slack deliverers subscribe with filter policies on it; docs/channels.md); a recipient with
none is a `notification.skipped` debug event.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from waitgate.approval import ApproverFields, notification_recipients
from waitgate.approval.approver_config import approver_fields
from waitgate.channels.ports import Contacts
from waitgate.errors import DeliveryFailedError, WaitgateError
from waitgate.escalation.escalation_steps import added_approvers
from waitgate.ports import Clock, Directory, InterruptStore, Notifier, Telemetry
from waitgate.run.asked import notify_fields
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.notices import ESCALATION_KIND, NOTICE_KIND, REMINDER_KIND, InterruptNotice, interrupt_title
from waitgate.run.records import InterruptRecord
from waitgate.run.telemetry import NoTelemetry, Notified
from waitgate.service import notification_events
from waitgate.service.mint_token import LinkSettings, link_for
from waitgate.tokens import KeyringError, KeySource

if TYPE_CHECKING:
    from waitgate.escalation import Step

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class NotificationDependencies:
    notifier: Notifier
    keyring: KeySource
    directory: Directory
    ref_kinds: frozenset[str]
    links: LinkSettings
    contacts: Contacts | None = None  # None: no contact points, the notices name no channel
    store: InterruptStore | None = None  # where notification.skipped is recorded (None: nowhere)
    telemetry: Telemetry = field(default_factory=NoTelemetry)


def recipients_of(
    record: InterruptRecord, directory: Directory, ref_kinds: frozenset[str]
) -> tuple[str, ...]:
    """Who the interrupt names, then who the Task's `notify` asks, then whoever its fired escalation
    steps added."""
    data = record.data
    asked = notify_fields(record.notify)
    by_notify = members_of(asked, record, directory, ref_kinds) if asked is not None else ()
    if record.kind == "conversation.start":
        return tuple(dict.fromkeys(_strings(data.get("participants")) + by_notify))
    named = _approval_recipients(record, directory, ref_kinds) if record.kind == "approval" else ()
    added = (members_of(step.fields, record, directory, ref_kinds) for step in added_approvers(record))
    found = named + by_notify + tuple(principal for members in added for principal in members)
    return tuple(dict.fromkeys(found))


def _approval_recipients(
    record: InterruptRecord, directory: Directory, ref_kinds: frozenset[str]
) -> tuple[str, ...]:
    audience = _strings(record.data.get("audience"))
    return audience or members_of(approver_fields(record.data), record, directory, ref_kinds)


def members_of(
    fields: ApproverFields, record: InterruptRecord, directory: Directory, ref_kinds: frozenset[str]
) -> tuple[str, ...]:
    """The principals eligibility fields name: the list, then group members and role holders."""
    tenant = record.run.tenant_id
    group_refs = (fields.approver_group_refs or ()) if "group" in ref_kinds else ()
    role_refs = (fields.approver_role_refs or ()) if "role" in ref_kinds else ()
    groups = {ref: directory.members(tenant, "group", ref) for ref in group_refs}
    roles = {ref: directory.members(tenant, "role", ref) for ref in role_refs}
    return notification_recipients(None, fields.approvers_list or (), groups, roles, ref_kinds)


def announce(
    record: InterruptRecord, deps: NotificationDependencies | None, clock: Clock, workflow: str = ""
) -> int:
    """Notify every recipient; the number of notices sent. Failures are logged (without links)."""
    if deps is None:
        return 0
    try:
        recipients = recipients_of(record, deps.directory, deps.ref_kinds)
        sent = _notify_each(record, recipients, deps, clock, workflow=workflow)
    except (WaitgateError, KeyringError) as error:  # the directory or the keyring: nobody told
        logger.warning("interrupt notifications not sent", extra={"error_type": type(error).__name__})
        return 0
    if sent and deps.store is not None:
        _mark_noticed(record, deps.store, clock)
    return sent


def _mark_noticed(record: InterruptRecord, store: InterruptStore, clock: Clock) -> None:
    """Somebody was told: the reconciler will not tell them again (docs/durability.md). A mark that
    does not land leaves a second notice to the reconciler, never a failed request."""
    try:
        store.mark_noticed(record, rfc3339(clock.now()))
    except WaitgateError as error:
        logger.warning("notice mark not recorded", extra={"error_type": type(error).__name__})


def remind(record: InterruptRecord, step: Step, deps: NotificationDependencies | None, clock: Clock) -> int:
    """After an escalation step fired: a reminding step tells everyone the interrupt names (and every
    approver a fired step added) who has not voted, each with a fresh link; a step that only adds
    approvers tells those it added. The number of notices sent; failures are logged."""
    if deps is None:
        return 0
    voted = {str(vote.get("principal")) for vote in record.votes}
    try:
        if step.remind:
            chosen = recipients_of(record, deps.directory, deps.ref_kinds)
        else:
            assert step.add_approvers is not None
            chosen = members_of(step.add_approvers, record, deps.directory, deps.ref_kinds)
        waiting = tuple(principal for principal in chosen if principal not in voted)
        notice = REMINDER_KIND if step.remind else ESCALATION_KIND
        return _notify_each(record, waiting, deps, clock, notice)
    except (WaitgateError, KeyringError) as error:
        logger.warning("escalation notices not sent", extra={"error_type": type(error).__name__})
        return 0


def personal_notice(
    record: InterruptRecord,
    recipient: str,
    deps: NotificationDependencies,
    now: datetime,
    *,
    notice_kind: str,
    channels: tuple[str, ...],
    title: str,
    workflow: str = "",
) -> InterruptNotice:
    """A notice for one recipient, with a resolve link minted for them alone (until the deadline,
    within the notices' link settings)."""
    link = link_for(record, "resolve", recipient, deps.keyring, now, deps.links)
    return InterruptNotice(
        run=record.run,
        node_id=record.node_id,
        interrupt_id=record.interrupt_id,
        kind=record.kind,
        recipient=recipient,
        link=link.url,
        expires_at=link.expires_at,
        title=title,
        notice=notice_kind,
        workflow=workflow,
        channels=channels,
    )


def _notify_each(
    record: InterruptRecord,
    recipients: tuple[str, ...],
    deps: NotificationDependencies,
    clock: Clock,
    notice_kind: str = NOTICE_KIND,
    workflow: str = "",
) -> int:
    sent = 0
    title = interrupt_title(record.data)
    unreachable: list[EventEntry] = []
    for recipient in recipients:
        points = deps.contacts.contact_points(record.run.tenant_id, recipient) if deps.contacts else None
        notice = personal_notice(
            record,
            recipient,
            deps,
            clock.now(),
            notice_kind=notice_kind,
            channels=points.channels if points else (),
            title=title,
            workflow=workflow,
        )
        if points is not None and not points.channels:
            unreachable.append(notification_events.skipped(notice, None, NO_CONTACT))
        try:
            deps.notifier.notify_interrupt(notice)
        except DeliveryFailedError as error:
            logger.warning("interrupt notice not sent", extra={"code": error.extensions.get("aws_code")})
            deps.telemetry.record(Notified("topic", "failed", record.run.tenant_id))
            continue
        deps.telemetry.record(Notified("topic", "sent", record.run.tenant_id))
        sent += 1
    if deps.store is not None:
        notification_events.record(deps.store, clock, record.run, unreachable)
    return sent


NO_CONTACT = "no contact point (e-mail or Slack) in the directory: only the notifications topic was told"


def workflow_of(execution_arn: str | None) -> str:
    """The state machine of an execution ARN (`arn:aws:states:…:execution:<machine>:<name>`), or ""."""
    parts = (execution_arn or "").split(":")
    return parts[6] if len(parts) > 7 and parts[5] == "execution" else ""


def _strings(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(dict.fromkeys(item for item in value if isinstance(item, str) and item))
