"""The InterruptPayload: one closed model per kind, discriminated by `kind`.

`parse_interrupt_payload` is the one entry point for untrusted input: strict, JSON member
names only (camelCase), and every failure is an InterruptPayloadInvalidError.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.payloads.data import (
    ApprovalData,
    ClarificationData,
    ConversationCloseData,
    ConversationExchangeData,
    ConversationStartData,
    CustomData,
    ExternalEventData,
    LowConfidenceData,
)
from waitgate.payloads.error_detail import describe
from waitgate.payloads.kinds import INTERRUPT_KINDS
from waitgate.payloads.primitives import (
    MODEL_CONFIG,
    Id200,
    JsonObject,
    JsonSchemaObject,
    Omittable,
    PositiveInt,
)


class _PayloadBase(BaseModel):
    """Members every kind shares."""

    model_config = MODEL_CONFIG

    key: Id200
    timeout_ms: Omittable[PositiveInt] = None
    resume_schema: Omittable[JsonSchemaObject] = None
    metadata: Omittable[JsonObject] = None


class ApprovalPayload(_PayloadBase):
    kind: Literal["approval"]
    data: ApprovalData


class ClarificationPayload(_PayloadBase):
    kind: Literal["clarification"]
    data: ClarificationData


class ExternalEventPayload(_PayloadBase):
    kind: Literal["external-event"]
    data: ExternalEventData


class CustomPayload(_PayloadBase):
    kind: Literal["custom"]
    data: CustomData


class ConversationStartPayload(_PayloadBase):
    kind: Literal["conversation.start"]
    data: ConversationStartData


class ConversationExchangePayload(_PayloadBase):
    kind: Literal["conversation.exchange"]
    data: ConversationExchangeData


class ConversationClosePayload(_PayloadBase):
    kind: Literal["conversation.close"]
    data: ConversationCloseData


class LowConfidencePayload(_PayloadBase):
    kind: Literal["low-confidence"]
    data: LowConfidenceData


InterruptPayloadModel = (
    ApprovalPayload
    | ClarificationPayload
    | ExternalEventPayload
    | CustomPayload
    | ConversationStartPayload
    | ConversationExchangePayload
    | ConversationClosePayload
    | LowConfidencePayload
)
InterruptPayload = Annotated[InterruptPayloadModel, Field(discriminator="kind")]

_ADAPTER: Final[TypeAdapter[InterruptPayloadModel]] = TypeAdapter(InterruptPayload)


def parse_interrupt_payload(data: object) -> InterruptPayloadModel:
    """Validate an untrusted InterruptPayload (a decoded JSON value).

    Raises InterruptPayloadInvalidError whose detail names the failing paths, e.g.
    "data.actions[0]: Input should be 'accept', ...". Snake_case member names are refused:
    they are Python spellings, not members of the JSON payload.
    """
    try:
        return _ADAPTER.validate_python(data, strict=True, by_alias=True, by_name=False)
    except ValidationError as exc:
        raise InterruptPayloadInvalidError(describe(exc, drop_tag=_has_tag(data))) from None
    except RecursionError:
        raise InterruptPayloadInvalidError("payload is nested too deeply") from None


def _has_tag(data: object) -> bool:
    kind = data.get("kind") if isinstance(data, dict) else None
    return isinstance(kind, str) and kind in INTERRUPT_KINDS


def payload_to_json(model: InterruptPayloadModel) -> dict[str, Any]:
    """The payload as JSON members (camelCase), only the members the caller set.

    Prefer storing the caller's original dict: the spec records the payload verbatim, and
    a round trip through the model turns 1 into 1.0 for number members.
    """
    dumped: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return dumped
