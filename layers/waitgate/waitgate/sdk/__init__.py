"""The SDK for agent and workflow authors (pure Python: stdlib + pydantic, no boto3, no Powertools).

- builders: `Approval(...)`, `Clarification(...)` with `Question(...)`, `ExternalEvent(...)`, ...
  → `.to_payload()`, a schema-valid InterruptPayload; `notify=Notify(principals=[...])` names who
  is asked, for any kind, beside the payload (`.task_input()`);
- decisions: `ApprovalDecision.from_resume(...)`, `ClarificationAnswers.from_resume(...)`;
- interop: `interrupt_kind(...)` and adapters from agentflow's interrupt payloads;
- client: `WaitgateClient` for the HTTP API, with Idempotency-Keys, safe retries and typed errors;
- escalation: `Escalation(steps=[EscalationStep(...)], on_deadline=ResolveWith(...))`, the policy
  beside an interrupt: reminders, added approvers, a decision at the deadline;
- workflow: `interrupt_task_state(...)`, the ASL Task state that suspends on an interrupt.
- agent frameworks (each imported on its own, each an extra: docs/agents.md): `agent_asks`
  (`AgentAsks`, an agent's asks over `POST /mcp`), `tool_approvals` (a tool call's approval and
  verdict), `langgraph`, `openai_agents`, `pydantic_ai`, `agui`;
- durable (imported on its own: it needs boto3 and aws-durable-execution-sdk-python):
  `wait_for_interrupt(context, Approval(...))` suspends a Lambda durable function on an interrupt.

Guide: docs/sdk.md.
"""

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.sdk.api_errors import (
    AlreadyVoted,
    DecisionAlreadyConsumed,
    Forbidden,
    IdempotencyKeyInFlight,
    IdempotencyKeyReused,
    InternalError,
    InterruptAlreadyResolved,
    InterruptExpired,
    InterruptTokenInvalid,
    NotFound,
    OutcomeUnknown,
    PayloadTooLarge,
    RateLimited,
    SelfApprovalRefused,
    TaskGone,
    Unauthorized,
    Unavailable,
    UnsupportedMediaType,
    ValidationError,
    WaitgateApiError,
    WaitgateClientError,
    WaitgateUnreachable,
)
from waitgate.sdk.builders import (
    Approval,
    Clarification,
    ConversationClose,
    ConversationExchange,
    ConversationStart,
    Custom,
    ExternalEvent,
    InterruptBuilder,
    LowConfidence,
    Notify,
    Question,
)
from waitgate.sdk.client import InboxPage, MintedLink, Resolution, TokenInspection, WaitgateClient
from waitgate.sdk.decisions import ApprovalDecision, ClarificationAnswers, Refinement, ResumeValueError, Vote
from waitgate.sdk.escalation import Approvers, Escalation, EscalationStep, ResolveWith
from waitgate.sdk.interop import (
    artifact_id_of,
    from_agentflow,
    from_clarification,
    from_permission,
    from_quality_gate,
    interrupt_kind,
)
from waitgate.sdk.transport import RetryPolicy
from waitgate.sdk.workflow import interrupt_task_state

__all__ = [
    "AlreadyVoted",
    "Approval",
    "ApprovalDecision",
    "Approvers",
    "Clarification",
    "ClarificationAnswers",
    "ConversationClose",
    "ConversationExchange",
    "ConversationStart",
    "Custom",
    "DecisionAlreadyConsumed",
    "Escalation",
    "EscalationStep",
    "ExternalEvent",
    "Forbidden",
    "IdempotencyKeyInFlight",
    "IdempotencyKeyReused",
    "InboxPage",
    "InternalError",
    "InterruptAlreadyResolved",
    "InterruptBuilder",
    "InterruptExpired",
    "InterruptPayloadInvalidError",
    "InterruptTokenInvalid",
    "LowConfidence",
    "MintedLink",
    "NotFound",
    "Notify",
    "OutcomeUnknown",
    "PayloadTooLarge",
    "Question",
    "RateLimited",
    "Refinement",
    "Resolution",
    "ResolveWith",
    "ResumeValueError",
    "RetryPolicy",
    "SelfApprovalRefused",
    "TaskGone",
    "TokenInspection",
    "Unauthorized",
    "Unavailable",
    "UnsupportedMediaType",
    "ValidationError",
    "Vote",
    "WaitgateApiError",
    "WaitgateClient",
    "WaitgateClientError",
    "WaitgateUnreachable",
    "artifact_id_of",
    "from_agentflow",
    "from_clarification",
    "from_permission",
    "from_quality_gate",
    "interrupt_kind",
    "interrupt_task_state",
]
