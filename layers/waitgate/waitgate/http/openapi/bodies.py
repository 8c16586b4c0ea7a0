"""The request and answer bodies of the HTTP API as pydantic models: their JSON Schemas go into the
OpenAPI document. The handlers build these bodies themselves (service/*.to_json); the document's
tests and schemathesis check that the two agree."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue
from pydantic.alias_generators import to_camel

from waitgate.http.openapi.body_config import CLOSED
from waitgate.http.openapi.inbox_routes import InterruptList
from waitgate.http.openapi.mcp_routes import McpRequest
from waitgate.http.openapi.subscription_routes import SUBSCRIPTION_MODELS, SubscriptionRequest
from waitgate.payloads.kinds import InterruptKind
from waitgate.run.records import RunStatus
from waitgate.service.mint_token import MAX_SUB_LENGTH, MAX_TTL_SECONDS

ANSWER_FIELD_PATTERN = r"^answers\.[A-Za-z0-9_.-]{1,64}$"  # a clarification question's answer


class ResolveRequest(BaseModel):
    """`{resumeValue}` (closed); what resumeValue must be depends on the interrupt's kind."""

    model_config = CLOSED

    resume_value: JsonValue = Field(
        description="approval: {action, decidedAt, ...}; clarification: {answers}; other kinds: any JSON "
        "value, checked against the interrupt's resumeSchema (and outcomeSchema) when declared."
    )


class ResolveForm(BaseModel):
    """The human page's own form, as a browser with scripts off posts it to the link's URL (and the
    signed-in inbox to the run surface, with its JWT): only the
    fields the page renders for this interrupt, each once, every value text. `action` is the pressed
    button (an approval's action; `submit` for other kinds); approval: `feedback`, the refine fields
    `scope`, `sectionPath`, `itemIds` (comma-separated) and `text`, and `editedArtifactData` (JSON);
    clarification: `answers.<questionId>` per question (a checkbox sends `true`, or nothing);
    other kinds: `resumeValue` (JSON). `decidedAt` is when the form arrives."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        populate_by_name=True,
        json_schema_extra={"patternProperties": {ANSWER_FIELD_PATTERN: {"type": "string"}}},
    )

    action: str
    feedback: str | None = None
    scope: str | None = None
    section_path: str | None = None
    item_ids: str | None = None
    text: str | None = None
    edited_artifact_data: str | None = None
    resume_value: str | None = None


class SlackInteraction(BaseModel):
    """What Slack posts to the interactivity URL when a button of a waitgate message is pressed:
    one field, `payload`, Slack's block_actions JSON; signed with the tenant's Slack signing secret
    (`X-Slack-Signature`, `X-Slack-Request-Timestamp`; docs/channels.md)."""

    model_config = ConfigDict(extra="forbid")

    payload: str


class ResolveAnswer(BaseModel):
    """200 resolved now (resumeValue is what the workflow receives); 202 recorded, still pending."""

    model_config = CLOSED

    run_id: str
    node_id: str
    interrupt_id: str
    status: Literal["resolved", "pending"]
    resume_value: JsonValue = Field(default=None, description="Present when status is resolved.")


class MintRequest(BaseModel):
    model_config = CLOSED

    intent: Literal["resolve", "inspect"]
    sub: Annotated[str, Field(min_length=1, max_length=MAX_SUB_LENGTH)] | None = Field(
        default=None, description="The principal the link acts for (its decider); omitted: the token itself."
    )
    ttl_seconds: Annotated[int, Field(ge=1, le=MAX_TTL_SECONDS)] | None = Field(
        default=None, description="Lifetime; capped at the interrupt's deadline. Default: the host's."
    )


class ConsumeRequest(BaseModel):
    model_config = CLOSED

    interrupt_id: str = Field(
        alias="interruptId", min_length=1, description="The decision's `decisionOf.interruptId`."
    )
    action_fingerprint: str = Field(
        alias="actionFingerprint", min_length=1, description="The decision's fingerprint."
    )


class ConsumeReceipt(BaseModel):
    model_config = CLOSED

    run_id: str = Field(alias="runId")
    node_id: str = Field(alias="nodeId")
    interrupt_id: str = Field(alias="interruptId")
    action_fingerprint: str = Field(alias="actionFingerprint")
    consumed_by: str = Field(alias="consumedBy")
    consumed_at: str = Field(alias="consumedAt")


class MintedLink(BaseModel):
    model_config = CLOSED

    token: str = Field(description="ow2.<alg>.<kid>.<payload>.<mac>; never log it.")
    url: str
    expires_at: str = Field(description="RFC 3339 UTC.")


class PendingInterrupt(BaseModel):
    model_config = CLOSED

    interrupt_id: str
    node_id: str
    kind: InterruptKind


class RunSnapshot(BaseModel):
    model_config = CLOSED

    run_id: str
    tenant_id: str
    status: RunStatus
    current_node_id: str | None = None
    pending_interrupt: PendingInterrupt | None = None


class RunEvent(BaseModel):
    model_config = CLOSED

    seq: int
    type: str
    time: str
    node_id: str | None = None
    payload: JsonValue = Field(description="Per type: schemas/v2/run-event-payloads.schema.json.")


class RunEventsPage(BaseModel):
    model_config = CLOSED

    events: list[RunEvent]
    next: int | None = Field(default=None, description="Pass it as `after` to read the next page.")


class FreshLinkRequest(BaseModel):
    """An expired link's page's form (urlencoded, or this as JSON): the expired link's token."""

    model_config = CLOSED

    token: str


class FreshLinkAnswer(BaseModel):
    """The one answer, whatever came of the request (it tells nobody whether anyone was sent a link)."""

    model_config = CLOSED

    status: Literal["accepted"]
    detail: str


class WebhookReceipt(BaseModel):
    model_config = CLOSED

    status: Literal["matched", "kept", "duplicate"] = Field(
        description="matched: it resolved a wait; kept: nothing waits for it yet; duplicate: seen before."
    )
    event_id: str
    resolved: int = Field(description="How many waits this delivery resolved.")


class WebhookEvent(BaseModel):
    model_config = CLOSED

    source: str
    event_id: str
    delivery_id: str
    type: str
    status: Literal["unmatched", "matched"]
    received_at: str
    expires_at: str
    data: dict[str, JsonValue]
    matched: dict[str, str] | None = Field(default=None, description="The last wait it resolved.")
    refusal: dict[str, JsonValue] | None = Field(
        default=None, description="Why a wait refused it (its resumeSchema): code, detail, path."
    )


class WebhookEventsPage(BaseModel):
    model_config = CLOSED

    source: str
    events: list[WebhookEvent]


class HostCapabilities(BaseModel):
    model_config = CLOSED

    conversation: bool


class Facets(BaseModel):
    model_config = CLOSED

    interrupt: dict[str, JsonValue] = Field(description="schemas/v2/facets/interrupt.schema.json")


class Capabilities(BaseModel):
    model_config = CLOSED

    facets: Facets
    capabilities: HostCapabilities


class Problem(BaseModel):
    """RFC 9457 problem details; `code` is the spec's code string, `path` names the failing member."""

    model_config = CLOSED

    type: str
    title: str
    status: int
    detail: str
    code: str
    path: str | None = None


REQUEST_BODIES: tuple[type[BaseModel], ...] = (
    ResolveRequest,
    ResolveForm,
    McpRequest,
    SubscriptionRequest,
)  # validated
MODELS: tuple[type[BaseModel], ...] = (
    McpRequest,
    ResolveRequest,
    ResolveForm,
    SlackInteraction,
    ResolveAnswer,
    MintRequest,
    MintedLink,
    ConsumeRequest,
    ConsumeReceipt,
    RunSnapshot,
    RunEventsPage,
    InterruptList,
    WebhookReceipt,
    WebhookEventsPage,
    FreshLinkRequest,
    FreshLinkAnswer,
    Capabilities,
    Problem,
    *SUBSCRIPTION_MODELS,
)
