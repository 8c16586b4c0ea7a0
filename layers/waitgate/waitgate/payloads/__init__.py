"""InterruptPayload models (8 kinds), resume values and the JSON-Schema checks they share.

The JSON Schema `waitgate/schemas/v2/suspend-request.schema.json` is normative; these models
agree with it (tests/unit/payloads prove it over a corpus and random inputs). One rule is
the models' own: clarification question ids must be unique.
"""

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
