"""After a decision, every Slack message of the interrupt says it: "Accepted by alice at 10:02 UTC",
and its buttons are gone (`chat.update`), whichever surface decided — a click, the page, the API, the
deadline or the run's end. Run by the table's stream consumer for each interrupt that ended."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from waitgate.channels.message_facts import facts_of
from waitgate.channels.ports import SentMessages, SlackMessages
from waitgate.errors import DeliveryFailedError
from waitgate.ports import InterruptStore
from waitgate.run.notices import InterruptNotice, interrupt_title
from waitgate.run.records import RunRef

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RefreshDependencies:
    store: InterruptStore
    sent: SentMessages
    messages: SlackMessages


def refresh_slack_messages(run: RunRef, node_id: str, interrupt_id: str, deps: RefreshDependencies) -> int:
    """The number of messages updated; DeliveryFailedError (after trying them all) for a retry."""
    record = deps.store.load(run, node_id).interrupt
    if record is None or record.interrupt_id != interrupt_id or record.status == "pending":
        return 0
    updated, failures = 0, 0
    for message in deps.sent.of_interrupt(run, node_id, interrupt_id, "slack"):
        notice = InterruptNotice(
            run=run,
            node_id=node_id,
            interrupt_id=interrupt_id,
            kind=record.kind,
            recipient=message.recipient,
            link="",  # a decided message has no buttons, and so no link
            expires_at="",
            title=message.title or interrupt_title(record.data),
            workflow=message.workflow,
        )
        try:
            deps.messages.update(facts_of(record, notice), message)
            updated += 1
        except DeliveryFailedError as error:
            failures += 1
            logger.warning(
                "slack message not updated", extra={"slack_error": error.extensions.get("slack_error")}
            )
    if failures:
        raise DeliveryFailedError(f"{failures} Slack message(s) not updated; retrying.")
    return updated
