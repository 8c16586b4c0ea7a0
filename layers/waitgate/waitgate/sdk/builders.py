"""Typed builders of InterruptPayloads: snake_case arguments in, a schema-valid camelCase dict out.

    Approval("release-42", artifact_id="r42", artifact_type="release", title="Ship 42?",
             approvers_list=("alice",), timeout=timedelta(hours=4)).to_payload()

`key` (the re-entry identity of the interrupt within its run) comes first and is always required.
Arguments left as None are omitted, so the host's defaults apply (`requiredApprovals` 1, ...).
`to_payload()` validates through `waitgate.payloads.parse_interrupt_payload` before it returns and
raises `InterruptPayloadInvalidError` (its detail names the failing member) otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from datetime import timedelta
from typing import Any, ClassVar, Literal

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.payloads import ApprovalAction, InterruptKind, parse_interrupt_payload
from waitgate.payloads.correlation import STRING_CORRELATION_MEMBER
from waitgate.run.asked import parse_notify

JsonObject = Mapping[str, Any]
DEFAULT_ACTIONS: tuple[ApprovalAction, ...] = ("accept", "reject")


def timeout_ms(timeout: timedelta) -> int:
    """A timedelta as whole milliseconds (at least 1); a zero or negative timeout is refused."""
    milliseconds = timeout // timedelta(milliseconds=1)
    if milliseconds < 1:
        raise InterruptPayloadInvalidError("timeoutMs: the timeout must be at least 1 ms")
    return int(milliseconds)


def _members(**members: Any) -> dict[str, Any]:
    """JSON members of the given values, None left out, sequences as lists, mappings as dicts."""
    return {name: _json(value) for name, value in members.items() if value is not None}


def _json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(name): _json(member) for name, member in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(item) for item in value]
    return value


@dataclass(frozen=True)
class Notify:
    """Who is asked, for any kind: principals, members of groups, holders of roles. Each is told with
    a personal link, and for a kind other than approval only they may answer. It rides beside the
    payload, in the Task input (`notify`), never inside it (docs/sdk.md, "Who is asked")."""

    principals: Sequence[str] = ()
    group_refs: Sequence[str] = ()
    role_refs: Sequence[str] = ()

    def to_json(self) -> dict[str, list[str]]:
        """The Task input's `notify` member, checked (InterruptPayloadInvalidError names what is wrong)."""
        members = {"principals": self.principals, "groupRefs": self.group_refs, "roleRefs": self.role_refs}
        return checked_notify({name: list(names) for name, names in members.items() if names})


def checked_notify(notify: Notify | JsonObject) -> dict[str, list[str]]:
    """A `Notify` or its JSON, as the Task input carries it, checked as the host checks it."""
    if isinstance(notify, Notify):
        return notify.to_json()
    checked = parse_notify(_json(notify))
    assert checked is not None  # a mapping is never None
    return checked


@dataclass(frozen=True)
class InterruptBuilder:
    """What every kind shares: `key`, then `timeout`, `resume_schema`, `metadata` and `notify` (who is
    asked, beside the payload: `task_input()`) by keyword."""

    kind: ClassVar[InterruptKind]
    key: str
    _: KW_ONLY
    timeout: timedelta | None = None
    resume_schema: JsonObject | None = None
    metadata: JsonObject | None = None
    notify: Notify | JsonObject | None = None

    def data(self) -> dict[str, Any]:
        """The kind's `data` member (camelCase)."""
        raise NotImplementedError

    def to_payload(self) -> dict[str, Any]:
        """The InterruptPayload as a JSON-ready dict, validated against the schema's rules."""
        payload: dict[str, Any] = {"kind": self.kind, "key": self.key, "data": self.data()}
        if self.timeout is not None:
            payload["timeoutMs"] = timeout_ms(self.timeout)
        payload.update(_members(resumeSchema=self.resume_schema, metadata=self.metadata))
        parse_interrupt_payload(payload)
        return payload

    def notify_json(self) -> dict[str, list[str]] | None:
        """The Task input's `notify` member (checked), or None when the builder names nobody."""
        return None if self.notify is None else checked_notify(self.notify)

    def task_input(self) -> dict[str, Any]:
        """The generic workflow's input: `{"interrupt": <payload>, "notify": ...}` (notify when given)."""
        notify = self.notify_json()
        return {"interrupt": self.to_payload(), **({"notify": notify} if notify is not None else {})}


@dataclass(frozen=True, kw_only=True)
class Approval(InterruptBuilder):
    """Ask for a decision on an artifact; quorum (`required_approvals`, `rejection_policy`,
    `override_bypasses_quorum`) and eligibility (`approvers_list`, `approver_group_refs`,
    `approver_role_refs`; `audience` is a notification hint) as in docs/approvals.md."""

    kind: ClassVar[InterruptKind] = "approval"
    artifact_id: str
    artifact_type: str
    title: str
    actions: Sequence[ApprovalAction] = DEFAULT_ACTIONS
    artifact: Any = None
    description: str | None = None
    required_approvals: int | None = None
    rejection_policy: Literal["single-veto", "majority"] | None = None
    override_bypasses_quorum: bool | None = None
    approvers_list: Sequence[str] | None = None
    approver_group_refs: Sequence[str] | None = None
    approver_role_refs: Sequence[str] | None = None
    audience: Sequence[str] | None = None
    criteria: Sequence[str] | None = None
    auto_score: float | None = None
    reasons: Sequence[str] | None = None

    def data(self) -> dict[str, Any]:
        return _members(
            artifactId=self.artifact_id,
            artifactType=self.artifact_type,
            title=self.title,
            actions=self.actions,
            artifact=self.artifact,
            description=self.description,
            requiredApprovals=self.required_approvals,
            rejectionPolicy=self.rejection_policy,
            overrideBypassesQuorum=self.override_bypasses_quorum,
            approversList=self.approvers_list,
            approverGroupRefs=self.approver_group_refs,
            approverRoleRefs=self.approver_role_refs,
            audience=self.audience,
            criteria=self.criteria,
            autoScore=self.auto_score,
            reasons=self.reasons,
        )


@dataclass(frozen=True)
class Question:
    """One question of a clarification; `schema` (a JSON Schema) checks its answer."""

    id: str
    question: str
    schema: JsonObject | None = None

    @classmethod
    def choice(cls, id: str, question: str, options: Sequence[Any]) -> Question:
        """A question whose answer is one of `options` (an `enum` schema)."""
        return cls(id, question, {"enum": list(options)})

    def to_json(self) -> dict[str, Any]:
        return _members(id=self.id, question=self.question, schema=self.schema)


@dataclass(frozen=True, kw_only=True)
class Clarification(InterruptBuilder):
    """Ask one or more questions; the resume value is `{answers: {<question id>: value}}`."""

    kind: ClassVar[InterruptKind] = "clarification"
    questions: Sequence[Question]
    context: JsonObject | None = None

    def data(self) -> dict[str, Any]:
        return {"questions": [question.to_json() for question in self.questions]} | _members(
            context=self.context
        )


@dataclass(frozen=True, kw_only=True)
class ExternalEvent(InterruptBuilder):
    """Wait for an event of `event_type` whose source identifies it by `correlation` (a plain string
    is the member `id`, as the host reads it: docs/webhooks.md)."""

    kind: ClassVar[InterruptKind] = "external-event"
    event_type: str
    correlation: Mapping[str, str] | str

    def data(self) -> dict[str, Any]:
        correlation = self.correlation
        if isinstance(correlation, str):
            correlation = {STRING_CORRELATION_MEMBER: correlation}
        return _members(eventType=self.event_type, correlation=correlation)


@dataclass(frozen=True, kw_only=True)
class Custom(InterruptBuilder):
    """A kind of your own (`custom_kind`, e.g. "acme.shipping-label"), persisted verbatim."""

    kind: ClassVar[InterruptKind] = "custom"
    custom_kind: str
    payload: Any = None

    def data(self) -> dict[str, Any]:
        return _members(customKind=self.custom_kind, payload=self.payload)


@dataclass(frozen=True, kw_only=True)
class ConversationStart(InterruptBuilder):
    kind: ClassVar[InterruptKind] = "conversation.start"
    conversation_id: str
    topic: str | None = None
    participants: Sequence[str] | None = None

    def data(self) -> dict[str, Any]:
        return _members(conversationId=self.conversation_id, topic=self.topic, participants=self.participants)


@dataclass(frozen=True, kw_only=True)
class ConversationExchange(InterruptBuilder):
    """One turn: `prompt`, and `outcome_schema` the answer must satisfy."""

    kind: ClassVar[InterruptKind] = "conversation.exchange"
    conversation_id: str
    prompt: str
    outcome_schema: JsonObject | None = None

    def data(self) -> dict[str, Any]:
        return _members(
            conversationId=self.conversation_id, prompt=self.prompt, outcomeSchema=self.outcome_schema
        )


@dataclass(frozen=True, kw_only=True)
class ConversationClose(InterruptBuilder):
    kind: ClassVar[InterruptKind] = "conversation.close"
    conversation_id: str
    reason: str | None = None

    def data(self) -> dict[str, Any]:
        return _members(conversationId=self.conversation_id, reason=self.reason)


@dataclass(frozen=True, kw_only=True)
class LowConfidence(InterruptBuilder):
    """An agent's decision whose confidence (`observed`) fell below `threshold`, for a human's call."""

    kind: ClassVar[InterruptKind] = "low-confidence"
    agent_id: str
    threshold: float
    observed: float
    decision: Any = None
    reasons: Sequence[str] | None = None

    def data(self) -> dict[str, Any]:
        return _members(
            agentId=self.agent_id,
            threshold=self.threshold,
            observed=self.observed,
            decision=self.decision,
            reasons=self.reasons,
        )
