"""requestFreshLink: `POST /fresh-links` from an expired link's page, carrying that link's token.

Whatever happens, the caller learns nothing: the handler answers the same 202 for a token that is not
authentic, a link without a person, a request that no longer waits, a person it does not wait for or
who has no e-mail address, and a fresh link sent. A fresh link goes only to the person the expired
link was made for (its `sub`), by e-mail only, and only when:
- the interrupt is the one the link names and still waits (pending, before its deadline, its run
  going on);
- the interrupt waits for that person: its notices name them (`notify.recipients_of`: an approval's
  audience or approvers, a conversation's participants, approvers an escalation step added), an
  approval's eligibility rules let them vote and they have not voted yet;
- their contact points in the directory have an e-mail address;
- no fresh link of that interrupt went to them in the last 5 minutes (one conditional write).
Anything that fails on the way (the directory, the table, the keyring) sends nothing: it fails closed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal

from waitgate.approval.approver_config import ApprovalConfig
from waitgate.channels.ports import Contacts
from waitgate.errors import InterruptTokenInvalidError, WaitgateError
from waitgate.ports import Clock, FreshLinks, InterruptStore, Telemetry
from waitgate.run.answerable import pending_record
from waitgate.run.notices import FRESH_LINK_KIND, interrupt_title
from waitgate.run.records import InterruptRecord, RunRef, check_node_id
from waitgate.run.telemetry import NoTelemetry, Notified
from waitgate.service._eligibility import eligibility_of
from waitgate.service.notify import NotificationDependencies, personal_notice, recipients_of
from waitgate.tokens import KeyringError, TokenClaims, authentic_claims

logger = logging.getLogger(__name__)

WINDOW = timedelta(minutes=5)  # at most one fresh link per (interrupt, principal) in this long

Outcome = Literal["sent", "refused", "not-waiting", "not-waiting-for-them", "no-email", "too-soon", "failed"]


@dataclass(frozen=True)
class FreshLinkDependencies:
    store: InterruptStore
    clock: Clock
    notifications: NotificationDependencies | None  # None: no topic or no keyring, nothing is sent
    contacts: Contacts | None
    sent: FreshLinks
    approval: ApprovalConfig = field(default_factory=ApprovalConfig)
    telemetry: Telemetry = field(default_factory=NoTelemetry)


def request_fresh_link(token: str, deps: FreshLinkDependencies) -> Outcome:
    """What came of the request, for the log and the tests: never for the caller."""
    notifications = deps.notifications
    if notifications is None or deps.contacts is None:
        return "failed"
    try:
        claims = authentic_claims(token, notifications.keyring)
    except (InterruptTokenInvalidError, KeyringError):
        return "refused"
    if claims.sub is None or claims.intent != "resolve":
        return "refused"
    try:
        return _send_if_owed(claims, claims.sub, notifications, deps.contacts, deps)
    except (WaitgateError, KeyringError) as error:  # fails closed: nothing sent
        logger.warning("fresh link not sent", extra={"error_type": type(error).__name__})
        return "failed"
    # An AWS error no adapter translates (a table gone, access denied): the answer
    # tells nothing either way, so nothing is sent and the caller gets the same 202; logged as an error
    except Exception as error:  # noqa: BLE001
        logger.error("fresh link not sent", extra={"error_type": type(error).__name__})
        return "failed"


def _send_if_owed(
    claims: TokenClaims,
    principal: str,
    notifications: NotificationDependencies,
    contacts: Contacts,
    deps: FreshLinkDependencies,
) -> Outcome:
    run = RunRef.parse(claims.tenant_id, claims.run_id)
    view = deps.store.load(run, check_node_id(claims.node_id))
    try:
        record = pending_record(view, deps.clock, interrupt_id=claims.interrupt_id, surface="token")
    except WaitgateError:
        return "not-waiting"
    if not _waits_for(record, principal, notifications, deps):
        return "not-waiting-for-them"
    if "email" not in contacts.contact_points(run.tenant_id, principal).channels:
        return "no-email"
    now = deps.clock.now()
    seconds = int(WINDOW.total_seconds())
    if not deps.sent.first_in_window(run, record.interrupt_id, principal, int(now.timestamp()), seconds):
        return "too-soon"
    notice = personal_notice(
        record,
        principal,
        notifications,
        now,
        notice_kind=FRESH_LINK_KIND,
        channels=("email",),  # asked for by e-mail: only the e-mail deliverer takes it
        title=interrupt_title(record.data),
    )
    notifications.notifier.notify_interrupt(notice)
    deps.telemetry.record(Notified("topic", "sent", run.tenant_id))
    return "sent"


def _waits_for(
    record: InterruptRecord,
    principal: str,
    notifications: NotificationDependencies,
    deps: FreshLinkDependencies,
) -> bool:
    """The interrupt's notices name the principal, and an approval would count their vote now."""
    if principal not in recipients_of(record, notifications.directory, notifications.ref_kinds):
        return False
    if record.kind != "approval":
        return True
    if any(vote.get("principal") == principal for vote in record.votes):
        return False
    try:
        eligibility_of(record, principal, notifications.directory, deps.approval, deps.clock.now())
    except WaitgateError:  # ForbiddenError: the rules would refuse their vote
        return False
    return True
