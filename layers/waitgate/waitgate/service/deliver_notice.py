"""Deliver one notice through one channel (e-mail, Slack): what a channel deliverer does with each
message the SNS topic handed it (docs/channels.md).

It reads the interrupt as it is now: one that was answered meanwhile is not announced any more. A
notice already sent (the queue handed it out twice) is not sent again. A recipient the channel
cannot reach (no contact point, the channel not configured) is a `notification.skipped`; a sent one
a `notification.sent`; a failure a `notification.failed`, and DeliveryFailedError goes back to the
queue, which retries it later and parks it after the last attempt; a permanent refusal
(DeliveryRefusedError: SES's sandbox refusing an unverified recipient, say) is a `notification.failed`
with `permanent: true` and is not tried again (outcome `refused`). A reminder is a notice of its
own (its own link), so it is sent again. The suspension never waits for
any of this, nor fails by it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from waitgate.channels.message_facts import facts_of
from waitgate.channels.ports import Channel, Contacts, SentMessages
from waitgate.errors import DeliveryFailedError, DeliveryRefusedError
from waitgate.ports import Clock, InterruptStore, Telemetry
from waitgate.run.notices import InterruptNotice
from waitgate.run.telemetry import Correlation, NoTelemetry, Notified
from waitgate.service import notification_events

Outcome = Literal["sent", "already-sent", "skipped", "refused"]


@dataclass(frozen=True)
class ChannelDependencies:
    store: InterruptStore
    contacts: Contacts
    sent: SentMessages
    clock: Clock
    attempts: int  # the queue's maxReceiveCount: the last attempt parks what fails
    telemetry: Telemetry = field(default_factory=NoTelemetry)


def deliver_notice(
    notice: InterruptNotice, channel: Channel, attempt: int, deps: ChannelDependencies
) -> Outcome:
    run = notice.run
    deps.telemetry.correlate(Correlation.at(run, notice.node_id, notice.interrupt_id, notice.kind))
    outcome = _deliver(notice, channel, attempt, deps)
    if outcome != "refused":  # a refusal was counted as failed where it happened
        deps.telemetry.record(Notified(channel.name, outcome, run.tenant_id))
    return outcome


def _deliver(notice: InterruptNotice, channel: Channel, attempt: int, deps: ChannelDependencies) -> Outcome:
    record = deps.store.load(notice.run, notice.node_id).interrupt
    if record is None or record.interrupt_id != notice.interrupt_id or record.status != "pending":
        return _skip(notice, channel, "the interrupt was answered or ended before the notice went out", deps)
    sent = deps.sent.find(
        notice.run, notice.node_id, notice.interrupt_id, channel.name, notice.recipient, notice.notice_id
    )
    if sent is not None:
        return "already-sent"
    reason = channel.unavailable_reason(notice.run.tenant_id)
    address = deps.contacts.contact_points(notice.run.tenant_id, notice.recipient).address(channel.name)
    if reason is None and address is None:
        reason = f"{notice.recipient} has no {channel.name} contact point in the directory"
    if reason is not None or address is None:
        return _skip(notice, channel, reason or "unreachable", deps)
    try:
        message = channel.send(facts_of(record, notice), address)
    except DeliveryFailedError as error:
        permanent = isinstance(error, DeliveryRefusedError)
        why = str(error.extensions.get("aws_code") or error.extensions.get("slack_error") or error.code)
        parked = attempt >= deps.attempts and not permanent
        event = notification_events.failed(notice, channel.name, attempt, why, parked, permanent)
        notification_events.record(deps.store, deps.clock, notice.run, [event])
        deps.telemetry.record(Notified(channel.name, "failed", notice.run.tenant_id))
        if permanent:
            return "refused"  # sending it again cannot succeed
        raise
    deps.sent.record(
        notice.run, notice.node_id, notice.interrupt_id, replace(message, notice_id=notice.notice_id)
    )
    event = notification_events.sent(notice, channel.name, attempt)
    notification_events.record(deps.store, deps.clock, notice.run, [event])
    return "sent"


def _skip(notice: InterruptNotice, channel: Channel, reason: str, deps: ChannelDependencies) -> Outcome:
    event = notification_events.skipped(notice, channel.name, reason)
    notification_events.record(deps.store, deps.clock, notice.run, [event])
    return "skipped"
