"""An agent's asks over MCP (docs/mcp.md): request an interrupt, read where it stands.

An ask goes through request_interrupt, as a workflow's Task does: the same payload checks, the same
transaction, the same notices, deadlines and escalation; what differs is that no run is suspended on
it (its handle is `agent-poll:`, waitgate.resume_handles), so the agent reads the outcome with
`read_ask`. A retried call is the same interrupt (waitgate.agent_asks: its run and key are the digest
of the caller and the call): an ask already made is read back, never written again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from waitgate.agent_asks import (
    AGENT_NODE,
    AgentAsk,
    ask_digest,
    interrupt_view,
    payload_of,
    run_id_of,
)
from waitgate.errors import ForbiddenError, InterruptPayloadInvalidError, NotFoundError
from waitgate.identity import Caller
from waitgate.payloads import parse_interrupt_payload
from waitgate.ports import Workflow
from waitgate.reconciliation import EngineState
from waitgate.records import JSONObject, RunRef
from waitgate.resume_handles import agent_poll_handle
from waitgate.service.request_interrupt import InterruptRequest, RequestDependencies, request_interrupt

ASK_SCOPE: Final = "interrupts:request"
READ_SCOPES: Final = (ASK_SCOPE, "runs:read")


@dataclass(frozen=True)
class AgentDependencies:
    requests: RequestDependencies
    inbox_url: str  # the signed-in inbox page, where the approvers find what waits for them


def ask(request: AgentAsk, caller: Caller, deps: AgentDependencies) -> JSONObject:
    """The interrupt this call asks for: made now, or the one the same call made before."""
    _require(caller, (ASK_SCOPE,))
    digest = ask_digest(request, caller.tenant_id, caller.principal)
    run = RunRef.parse(caller.tenant_id, run_id_of(digest))
    payload = payload_of(request, digest, caller.principal)
    store = deps.requests.store
    earlier = store.load(run, AGENT_NODE, reentry_key=payload["key"])
    if earlier.reentry is None:
        parse_interrupt_payload(payload)  # a malformed ask is refused with its reason, nothing written
        refusals = _Refusals(deps.requests.workflow)
        handle = agent_poll_handle(digest)
        requested = InterruptRequest(handle, run, AGENT_NODE, payload, escalation=request.escalation)
        outcome = request_interrupt(requested, replace(deps.requests, workflow=refusals))
        if outcome.status == "rejected":
            raise InterruptPayloadInvalidError(refusals.cause or "The ask was refused.")
    return read_ask(run.run_id, caller, deps)


def read_ask(run_id: str, caller: Caller, deps: AgentDependencies) -> JSONObject:
    """Where the interrupt of a run of the caller's tenant stands (another tenant's: not found)."""
    _require(caller, READ_SCOPES)
    run = RunRef.parse(caller.tenant_id, run_id)
    record = deps.requests.store.load(run, AGENT_NODE).interrupt
    if record is None:
        raise NotFoundError("No such run or node.")
    return interrupt_view(record, deps.inbox_url)


def _require(caller: Caller, scopes: tuple[str, ...]) -> None:
    if not caller.scopes & set(scopes):
        raise ForbiddenError(f"The bearer token lacks the scope {' or '.join(scopes)}.")


class _Refusals:
    """The request's engine, keeping why request_interrupt refused an ask: an `agent-poll:` handle
    has no engine to fail, so the refusal is the tool call's error instead."""

    def __init__(self, engines: Workflow) -> None:
        self._engines = engines
        self.cause: str | None = None

    def send_success(self, task_token: str, output: Any) -> None:
        self._engines.send_success(task_token, output)

    def send_failure(self, task_token: str, error: str, cause: str) -> None:
        self.cause = cause
        self._engines.send_failure(task_token, error, cause)

    def execution_state(self, execution_arn: str) -> EngineState | None:
        return self._engines.execution_state(execution_arn)
