"""InterruptPayload models (8 kinds), resume values and the JSON-Schema checks they share.

The JSON Schema `waitgate/schemas/v2/suspend-request.schema.json` is normative; these models
agree with it (tests/unit/payloads prove it over a corpus and random inputs). One rule is
the models' own: clarification question ids must be unique.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from waitgate.payloads.data import (
        ApprovalData,
        ClarificationData,
        ClarificationQuestion,
        ConversationCloseData,
        ConversationExchangeData,
        ConversationStartData,
        CustomData,
        ExternalEventData,
        LowConfidenceData,
    )
    from waitgate.payloads.interrupt import (
        ApprovalPayload,
        ClarificationPayload,
        ConversationClosePayload,
        ConversationExchangePayload,
        ConversationStartPayload,
        CustomPayload,
        ExternalEventPayload,
        InterruptPayload,
        InterruptPayloadModel,
        LowConfidencePayload,
        parse_interrupt_payload,
        payload_to_json,
    )
    from waitgate.payloads.kinds import (
        CONVERSATION_KINDS,
        INTERRUPT_KINDS,
        LEGACY_EVENT_PREFIX_BY_KIND,
        SNAPSHOT_STATUS_BY_KIND,
        InterruptKind,
        SnapshotStatus,
        snapshot_status_for,
    )
    from waitgate.payloads.primitives import APPROVAL_ACTIONS, ApprovalAction
    from waitgate.payloads.resume import (
        ApprovalResume,
        ClarificationResume,
        RefineFeedback,
        parse_approval_resume,
        parse_clarification_resume,
    )
    from waitgate.payloads.schema_cache import validate_against_schema

# Loaded on first use (PEP 562): a resolve handler needs the resume models, not the eight payload
# models and their TypeAdapter, so its cold start does not pay for them.
_EXPORTS: dict[str, str] = {
    "APPROVAL_ACTIONS": "primitives",
    "ApprovalAction": "primitives",
    "ApprovalData": "data",
    "ApprovalPayload": "interrupt",
    "ApprovalResume": "resume",
    "CONVERSATION_KINDS": "kinds",
    "ClarificationData": "data",
    "ClarificationPayload": "interrupt",
    "ClarificationQuestion": "data",
    "ClarificationResume": "resume",
    "ConversationCloseData": "data",
    "ConversationClosePayload": "interrupt",
    "ConversationExchangeData": "data",
    "ConversationExchangePayload": "interrupt",
    "ConversationStartData": "data",
    "ConversationStartPayload": "interrupt",
    "CustomData": "data",
    "CustomPayload": "interrupt",
    "ExternalEventData": "data",
    "ExternalEventPayload": "interrupt",
    "INTERRUPT_KINDS": "kinds",
    "InterruptKind": "kinds",
    "InterruptPayload": "interrupt",
    "InterruptPayloadModel": "interrupt",
    "LEGACY_EVENT_PREFIX_BY_KIND": "kinds",
    "LowConfidenceData": "data",
    "LowConfidencePayload": "interrupt",
    "RefineFeedback": "resume",
    "SNAPSHOT_STATUS_BY_KIND": "kinds",
    "SnapshotStatus": "kinds",
    "parse_approval_resume": "resume",
    "parse_clarification_resume": "resume",
    "parse_interrupt_payload": "interrupt",
    "payload_to_json": "interrupt",
    "snapshot_status_for": "kinds",
    "validate_against_schema": "schema_cache",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'waitgate.payloads' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"waitgate.payloads.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "APPROVAL_ACTIONS",
    "CONVERSATION_KINDS",
    "INTERRUPT_KINDS",
    "LEGACY_EVENT_PREFIX_BY_KIND",
    "SNAPSHOT_STATUS_BY_KIND",
    "ApprovalAction",
    "ApprovalData",
    "ApprovalPayload",
    "ApprovalResume",
    "ClarificationData",
    "ClarificationPayload",
    "ClarificationQuestion",
    "ClarificationResume",
    "ConversationCloseData",
    "ConversationClosePayload",
    "ConversationExchangeData",
    "ConversationExchangePayload",
    "ConversationStartData",
    "ConversationStartPayload",
    "CustomData",
    "CustomPayload",
    "ExternalEventData",
    "ExternalEventPayload",
    "InterruptKind",
    "InterruptPayload",
    "InterruptPayloadModel",
    "LowConfidenceData",
    "LowConfidencePayload",
    "RefineFeedback",
    "SnapshotStatus",
    "parse_approval_resume",
    "parse_clarification_resume",
    "parse_interrupt_payload",
    "payload_to_json",
    "snapshot_status_for",
    "validate_against_schema",
]
