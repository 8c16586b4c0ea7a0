"""An agent's asks over MCP (docs/mcp.md): request an interrupt, read where it stands.

An ask goes through request_interrupt, as a workflow's Task does: the same payload checks, the same
transaction, the same notices, deadlines and escalation; what differs is that no run is suspended on
it (its handle is `agent-poll:`, waitgate.run.resume_handles), so the agent reads the outcome with
`read_ask`. A retried call is the same interrupt (waitgate.run.agent_asks: its run and key are the digest
of the caller and the call): an ask already made is read back, never written again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from waitgate.approval.approver_config import ApprovalConfig
from waitgate.errors import ForbiddenError, InterruptPayloadInvalidError, NotFoundError
from waitgate.payloads import parse_interrupt_payload
from waitgate.ports import Directory, ReplayGuard, Workflow
from waitgate.run.agent_asks import AGENT_NODE, AgentAsk, ask_digest, interrupt_view, payload_of, run_id_of
from waitgate.run.identity import Caller
from waitgate.run.reconciliation import EngineState
from waitgate.run.records import JSONObject, RunRef
from waitgate.run.resume_handles import agent_poll_handle
from waitgate.service.mint_token import LinkSettings
from waitgate.service.request_interrupt import InterruptRequest, RequestDependencies, request_interrupt
from waitgate.tokens import KeySource

ASK_SCOPE: Final = "interrupts:request"
READ_SCOPES: Final = (ASK_SCOPE, "runs:read")


@dataclass(frozen=True)
class AgentDependencies:
    requests: RequestDependencies
    inbox_url: str  # the signed-in inbox page, where the approvers find what waits for them
    own_links: OwnLinks | None = None  # the caller's own decision link (None: never offered)
    rounds: ReplayGuard | None = None  # where a round's state is marked used (None: no rounds offered)


@dataclass(frozen=True)
class OwnLinks:
    """What the caller's own decision link takes (service.agent_rounds): who may decide, and a link."""

    keyring: KeySource
    directory: Directory
    links: LinkSettings
    approval: ApprovalConfig = field(default_factory=ApprovalConfig)


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
    view = deps.requests.store.load(run, AGENT_NODE)
    if view.interrupt is None:
        raise NotFoundError("No such run or node.")
    run_status = view.snapshot.status if view.snapshot is not None else None
    return interrupt_view(view.interrupt, deps.inbox_url, run_status)


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
