"""Who is told that an interrupt waits, each with a personal resolve link (after the request commits).

approval: `audience` when given, else the union of the eligibility refs (approversList, members of
approverGroupRefs and holders of approverRoleRefs from the directory, for the advertised ref kinds);
conversation.start: its `participants`. Other kinds name nobody: mint a link for them instead
(`POST /runs/{runId}/interrupts/{nodeId}/tokens`). A failed notice never undoes the request.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from waitgate.approval import notification_recipients
from waitgate.errors import DeliveryFailedError, WaitgateError
from waitgate.notices import InterruptNotice
from waitgate.ports import Clock, Directory, Notifier
from waitgate.records import InterruptRecord
from waitgate.service.mint_token import LinkSettings, link_for
from waitgate.service.rules.approver_config import approver_fields
from waitgate.tokens import KeyringError, KeySource

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class NotificationDependencies:
    notifier: Notifier
    keyring: KeySource
    directory: Directory
    ref_kinds: frozenset[str]
    links: LinkSettings


def recipients_of(
    record: InterruptRecord, directory: Directory, ref_kinds: frozenset[str]
) -> tuple[str, ...]:
    data = record.data
    if record.kind == "conversation.start":
        return _strings(data.get("participants"))
    if record.kind != "approval":
        return ()
    audience = _strings(data.get("audience"))
    if audience:
        return audience
    fields = approver_fields(data)
    tenant = record.run.tenant_id
    group_refs = (fields.approver_group_refs or ()) if "group" in ref_kinds else ()
    role_refs = (fields.approver_role_refs or ()) if "role" in ref_kinds else ()
    groups = {ref: directory.members(tenant, "group", ref) for ref in group_refs}
    roles = {ref: directory.members(tenant, "role", ref) for ref in role_refs}
    return notification_recipients(None, fields.approvers_list or (), groups, roles, ref_kinds)


def announce(record: InterruptRecord, deps: NotificationDependencies | None, clock: Clock) -> int:
    """Notify every recipient; the number of notices sent. Failures are logged (without links)."""
    if deps is None:
        return 0
    try:
        return _notify_each(record, deps, clock)
    except (WaitgateError, KeyringError) as error:  # the directory or the keyring: nobody told
        logger.warning("interrupt notifications not sent", extra={"error_type": type(error).__name__})
        return 0


def _notify_each(record: InterruptRecord, deps: NotificationDependencies, clock: Clock) -> int:
    sent = 0
    title = _title(record)
    for recipient in recipients_of(record, deps.directory, deps.ref_kinds):
        link = link_for(record, "resolve", recipient, deps.keyring, clock.now(), deps.links)
        notice = InterruptNotice(
            run=record.run,
            node_id=record.node_id,
            interrupt_id=record.interrupt_id,
            kind=record.kind,
            recipient=recipient,
            link=link.url,
            expires_at=link.expires_at,
            title=title,
        )
        try:
            deps.notifier.notify_interrupt(notice)
        except DeliveryFailedError as error:
            logger.warning("interrupt notice not sent", extra={"code": error.extensions.get("aws_code")})
            continue
        sent += 1
    return sent


def _title(record: InterruptRecord) -> str:
    data = record.data
    for name in ("title", "prompt", "topic", "eventType", "customKind"):
        if isinstance(data.get(name), str):
            return str(data[name])
    questions = data.get("questions")
    if isinstance(questions, list) and questions and isinstance(questions[0], dict):
        return str(questions[0].get("question", ""))
    return ""


def _strings(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(dict.fromkeys(item for item in value if isinstance(item, str) and item))
