"""Pure rules of an agent's ask over MCP (docs/mcp.md): a tool's arguments as an interrupt payload,
the re-entry key that makes a retried call the same interrupt, and what the agent is shown of it.

An ask is a run of its own with one node, `Interrupt`, in the caller's tenant. Its run id and its
payload's `key` are both the digest of who asked (tenant, principal), which tool, its arguments and
the client's request key, so the same call retried reaches the same run and the same key: the
re-entry rules (docs/durability.md) give back the interrupt it made, never a second one. Another
principal, another tenant or other arguments make another digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from waitgate.run.identity import AGENT_NAMESPACE
from waitgate.run.records import InterruptRecord, JSONObject, RunStatus
from waitgate.run.resume_handles import handle_kind

AgentTool = Literal["request_approval", "ask_question", "wait_for_event"]
AGENT_NODE: Final = "Interrupt"
RUN_PREFIX: Final = "mcp-"
DIGEST_CHARS: Final = 40  # of the SHA-256's hex: 160 bits, within a run id's 80 characters
KIND_OF_TOOL: Final[dict[str, str]] = {
    "request_approval": "approval",
    "ask_question": "clarification",
    "wait_for_event": "external-event",
}
RUN_END_OF_ASK: Final[dict[str, RunStatus]] = {"resolved": "completed", "expired": "failed"}


@dataclass(frozen=True)
class AgentAsk:
    """One tool call that asks: the tool, its data members (the kind's own names), the payload's
    top-level members (timeoutMs, resumeSchema), the client's request key ("" when none) and an
    escalation policy (docs/escalation.md; None: the host's default)."""

    tool: AgentTool
    data: JSONObject
    options: JSONObject
    request_key: str = ""
    escalation: Any = None

    @property
    def kind(self) -> str:
        return KIND_OF_TOOL[self.tool]


def ask_digest(ask: AgentAsk, tenant_id: str, principal: str) -> str:
    """The re-entry digest: the same caller, tool, arguments and request key give the same one."""
    canonical = json.dumps(
        [tenant_id, principal, ask.tool, ask.data, ask.options, ask.escalation, ask.request_key],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def run_id_of(digest: str) -> str:
    return RUN_PREFIX + digest


def requester_of(principal: str) -> str:
    """Who an approval asked through MCP was requested by: the agent, not the person whose token it
    holds (`agent:<sub>`, a namespace no person may have): the request is the agent's, and the person
    deciding what their own agent would do is the point of the ask (docs/approvals.md)."""
    return AGENT_NAMESPACE + principal


def payload_of(ask: AgentAsk, digest: str, principal: str) -> JSONObject:
    """The interrupt payload the ask becomes (checked by the same schemas as a workflow's); an
    approval names its requester, the caller's agent."""
    data = dict(ask.data)
    if ask.kind == "approval":
        data["requestedBy"] = requester_of(principal)
    payload: JSONObject = {"kind": ask.kind, "key": RUN_PREFIX + digest, "data": data}
    payload.update(ask.options)
    return payload


def members(**values: Any) -> JSONObject:
    """The members given (None: absent), as a payload spells them."""
    return {name: value for name, value in values.items() if value is not None}


def timeout_ms(timeout_seconds: int | None) -> JSONObject:
    return {} if timeout_seconds is None else {"timeoutMs": timeout_seconds * 1000}


def interrupt_view(record: InterruptRecord, inbox_url: str, run_status: str | None = None) -> JSONObject:
    """What the agent is shown of its interrupt: where it and its run stand, and once ended, how."""
    view: JSONObject = {
        "interruptId": record.interrupt_id,
        "runId": record.run.run_id,
        "nodeId": record.node_id,
        "kind": record.kind,
        "status": record.status,
        "requestedAt": record.requested_at,
        "inboxUrl": inbox_url,
    }
    view.update(members(deadline=record.deadline, resolvedAt=record.resolved_at, runStatus=run_status))
    if record.status != "pending":
        view["resumeValue"] = record.resume_value
        decided_by = decider_of(record.resume_value)
        if decided_by is not None:
            view["decidedBy"] = decided_by
    return view


def decider_of(resume_value: Any) -> str | None:
    decided_by = resume_value.get("decidedBy") if isinstance(resume_value, Mapping) else None
    return decided_by if isinstance(decided_by, str) else None


def run_status_after(record: InterruptRecord, ending: str) -> RunStatus:
    """The run's status once its interrupt ends (`resolved` or `expired`). A workflow's run is resumed
    (`running`: its execution goes on, and its end says how the run ends); an ask's run has no
    execution to end it, so it ends with its interrupt: resolved, `completed`; expired, `failed`."""
    if handle_kind(record.task_token) != "agent-poll":
        return "running"
    return RUN_END_OF_ASK.get(ending, "running")
