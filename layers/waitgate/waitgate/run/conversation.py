"""Conversations: a tenant-wide item per conversationId, guarded in the same transaction as the run.

`conversation.start` creates it (it must not exist: conversationId is unique per tenant);
`conversation.exchange` and `.close` need it open; resolving a `.close` marks it closed.
"""

from __future__ import annotations

from waitgate.errors import (
    CapabilityNotSupportedError,
    ConversationAlreadyStartedError,
    ConversationNotOpenError,
    WaitgateError,
)
from waitgate.payloads import CONVERSATION_KINDS
from waitgate.run.records import ConversationRef, GuardedItem, InterruptRecord, JSONObject, RunRef

STARTED = "conversation-unique"
OPEN = "conversation-open"


def check_capability(kind: str, capability_on: bool) -> None:
    if kind in CONVERSATION_KINDS and not capability_on:
        raise CapabilityNotSupportedError(
            f"{kind} needs the conversation capability, which this host has switched off."
        )


def request_guards(run: RunRef, payload: JSONObject, requested_at: str) -> tuple[GuardedItem, ...]:
    """What a conversation interrupt needs of its conversation when it is requested."""
    kind = payload["kind"]
    if kind not in CONVERSATION_KINDS:
        return ()
    subject = ConversationRef(run.tenant_id, payload["data"]["conversationId"])
    if kind == "conversation.start":
        item = _attributes(run, payload["data"]["conversationId"], "open")
        item["startedAt"] = requested_at
        return (GuardedItem(subject, STARTED, expect=None, put=item),)
    return (GuardedItem(subject, OPEN, expect={"status": "open"}),)


def resolution_guards(record: InterruptRecord, resolved_at: str) -> tuple[GuardedItem, ...]:
    """Resolving a close marks the conversation closed (it was open when the close was requested;
    a second close of a closed one leaves it closed)."""
    if record.kind != "conversation.close":
        return ()
    conversation_id = record.data["conversationId"]
    item = _attributes(record.run, conversation_id, "closed")
    item["closedAt"] = resolved_at
    subject = ConversationRef(record.run.tenant_id, conversation_id)
    return (GuardedItem(subject, "conversation-exists", expect={}, put=item),)


def guard_error(label: str, payload: JSONObject) -> WaitgateError:
    """The error a workflow's Catch can match, for the guard that did not hold."""
    conversation_id = payload["data"].get("conversationId")
    if label == STARTED:
        return ConversationAlreadyStartedError(f"Conversation {conversation_id!r} was already started.")
    return ConversationNotOpenError(f"Conversation {conversation_id!r} is not open for this tenant.")


def _attributes(run: RunRef, conversation_id: str, status: str) -> dict[str, str]:
    return {
        "tenantId": run.tenant_id,
        "conversationId": conversation_id,
        "status": status,
        "runId": run.run_id,
    }
