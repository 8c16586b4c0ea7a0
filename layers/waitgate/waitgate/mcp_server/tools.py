"""waitgate's MCP tools (docs/mcp.md): each a thin edge over a use case, like an HTTP handler.

request_approval, ask_question and wait_for_event ask (service.agent_interrupts.ask: one interrupt of
the matching kind, the same path as a workflow's); get_interrupt reads where one stands;
list_pending is the caller's inbox (service.list_interrupts). The input schemas are the tools'
signatures, the output schemas their return models. A refusal (a 4xx of the HTTP API) is a JSON-RPC
error whose `data` holds the API's `code` and `status`; nothing was written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, InputRequiredResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from waitgate.errors import UnauthorizedError, WaitgateError
from waitgate.http.auth import caller_from_jwt
from waitgate.mcp_server.request_states import state_security
from waitgate.mcp_server.rounds import first_answer, use_state
from waitgate.ports import Clock
from waitgate.run.agent_asks import AgentAsk, ask_digest, members, run_id_of, timeout_ms
from waitgate.run.clock import SystemClock
from waitgate.run.identity import Caller
from waitgate.service import list_interrupts as inbox
from waitgate.service.agent_interrupts import ASK_SCOPE, READ_SCOPES, ask, read_ask
from waitgate.tokens import KeySource

RequestKey = Annotated[
    str | None,
    Field(
        max_length=200,
        description="Your key for this request: the same call with the same key returns the same "
        "interrupt (retry safely); another key asks again.",
    ),
]
TimeoutSeconds = Annotated[
    int | None,
    Field(ge=1, le=31_363_200, description="How long people have to answer, in seconds (at most 363 days)."),
]


class InterruptView(BaseModel):
    """An interrupt as the agent sees it: while `status` is pending, ask again with get_interrupt."""

    model_config = ConfigDict(extra="forbid")

    interruptId: str
    runId: str = Field(description="Pass it to get_interrupt.")
    nodeId: str
    kind: str
    status: Literal["pending", "resolved", "expired", "cancelled"]
    requestedAt: str
    inboxUrl: str = Field(description="Where the approvers find it (signed in).")
    deadline: str | None = None
    resolvedAt: str | None = None
    resumeValue: Any = Field(default=None, description="The decision or answer, once resolved.")
    decidedBy: str | None = None
    runStatus: str | None = Field(
        default=None,
        description="The ask's run: waiting-* while pending, then completed (resolved) or failed (expired).",
    )


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=64)
    question: str = Field(min_length=1)
    schema_: dict[str, Any] | None = Field(
        default=None, alias="schema", description="A JSON Schema the answer must meet."
    )


class PendingPage(BaseModel):
    items: list[dict[str, Any]]
    next: str | None = Field(default=None, description="Pass it as `cursor` for the next page.")


ASKS = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=True
)
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_server(
    dependencies: Callable[[], Any],
    inbox_dependencies: Callable[[], Any],
    auth: AuthSettings,
    verifier: TokenVerifier,
    keyring: Callable[[], KeySource],
    clock: Clock | None = None,
) -> MCPServer:
    """The tools on `dependencies()` (service.agent_interrupts.AgentDependencies, built on first use)
    and `inbox_dependencies()` (list_interrupts'); the caller from the bearer token `verifier` let in;
    round states sealed with the token `keyring` (fetched on first use) and dated by `clock`; the
    asks served as MCP Tasks to the clients that declare them (mcp_server.tasks)."""
    from waitgate.mcp_server.tasks import InterruptTasks

    server = MCPServer(
        "waitgate",
        instructions="Ask people and wait durably: each ask is a waitgate interrupt that people answer "
        "by e-mail, Slack or their inbox; poll get_interrupt until its status is no longer pending.",
        auth=auth,
        token_verifier=verifier,
        request_state_security=state_security(keyring, clock or SystemClock()),
        extensions=[InterruptTasks(dependencies)],
    )
    tools = Tools(dependencies, inbox_dependencies)
    asking: tuple[Callable[..., Any], ...] = (
        tools.request_approval,
        tools.ask_question,
        tools.wait_for_event,
    )
    reading: tuple[Callable[..., Any], ...] = (tools.get_interrupt, tools.list_pending)
    for tool in asking:
        server.tool(annotations=ASKS)(tool)
    for tool in reading:
        server.tool(annotations=READS)(tool)
    return server


class Tools:
    """The tools, each a thin edge: its arguments (the input schema) to a use case, its answer (the
    output schema) back; the caller is the verified bearer token's."""

    def __init__(self, dependencies: Callable[[], Any], inbox_dependencies: Callable[[], Any]) -> None:
        self._dependencies = dependencies
        self._inbox_dependencies = inbox_dependencies

    async def request_approval(
        self,
        ctx: Context[Any, Any],
        title: Annotated[str, Field(min_length=1, max_length=500)],
        approvers: Annotated[list[str] | None, Field(description="Principals who may decide.")] = None,
        approver_groups: Annotated[list[str] | None, Field(description="Groups whose members may.")] = None,
        approver_roles: Annotated[list[str] | None, Field(description="Roles whose holders may.")] = None,
        required_approvals: Annotated[int | None, Field(ge=1, description="The quorum.")] = None,
        actions: Annotated[list[str] | None, Field(description="Default: accept, reject.")] = None,
        description: str | None = None,
        artifact_id: str = "agent-request",
        artifact_type: str = "mcp",
        artifact: Annotated[Any, Field(description="What is to be approved, shown to the approvers.")] = None,
        timeout_seconds: TimeoutSeconds = None,
        escalation: Annotated[dict[str, Any] | None, Field(description="An escalation policy.")] = None,
        request_key: RequestKey = None,
    ) -> InterruptView | InputRequiredResult:
        """Ask people for an approval; returns at once with the interrupt pending (or, when you may
        decide it yourself and your client can open a page, the page, then your decision)."""
        data: dict[str, Any] = {"artifactId": artifact_id, "artifactType": artifact_type, "title": title}
        data["actions"] = actions or ["accept", "reject"]
        data.update(members(description=description, artifact=artifact))
        data.update(
            members(
                approversList=approvers,
                approverGroupRefs=approver_groups,
                approverRoleRefs=approver_roles,
                requiredApprovals=required_approvals,
            )
        )
        options = timeout_ms(timeout_seconds)
        request = AgentAsk("request_approval", data, options, request_key or "", escalation)
        return self._ask_in_rounds(request, title, ctx)

    async def ask_question(
        self,
        questions: Annotated[list[Question], Field(min_length=1, max_length=50)],
        context: dict[str, Any] | None = None,
        timeout_seconds: TimeoutSeconds = None,
        request_key: RequestKey = None,
    ) -> InterruptView:
        """Ask people one or more questions (each with its own answer schema); returns at once."""
        asked = [question.model_dump(by_alias=True, exclude_none=True) for question in questions]
        data = {"questions": asked} | members(context=context)
        return self._ask(AgentAsk("ask_question", data, timeout_ms(timeout_seconds), request_key or ""))

    async def wait_for_event(
        self,
        event_type: Annotated[str, Field(min_length=1, max_length=200)],
        correlation: Annotated[dict[str, str], Field(description="The members the event's data carries.")],
        resume_schema: dict[str, Any] | None = None,
        timeout_seconds: TimeoutSeconds = None,
        request_key: RequestKey = None,
    ) -> InterruptView:
        """Wait for an external event (a signed webhook resolves it, docs/webhooks.md); returns at once."""
        options = timeout_ms(timeout_seconds) | members(resumeSchema=resume_schema)
        data = {"eventType": event_type, "correlation": correlation}
        return self._ask(AgentAsk("wait_for_event", data, options, request_key or ""))

    async def get_interrupt(
        self, run_id: Annotated[str, Field(min_length=1, max_length=80)]
    ) -> InterruptView:
        """Where an ask stands: pending, or resolved with the decision (also expired, cancelled)."""
        return _view(lambda caller: read_ask(run_id, caller, self._dependencies()), READ_SCOPES)

    async def list_pending(
        self,
        kind: str | None = None,
        limit: Annotated[int | None, Field(ge=1, le=inbox.MAX_LIMIT)] = None,
        cursor: str | None = None,
    ) -> PendingPage:
        """What waits for you to decide (your inbox), by deadline."""
        with json_rpc_refusals():
            caller = token_caller(inbox.READ_SCOPES)
            parameters = {"kind": kind, "limit": None if limit is None else str(limit), "cursor": cursor}
            query = inbox.InboxQuery.parse(parameters, caller)
            page = inbox.list_interrupts(query, caller, self._inbox_dependencies())
            return PendingPage.model_validate(page)

    def _ask_in_rounds(
        self, request: AgentAsk, title: str, ctx: Context[Any, Any]
    ) -> InterruptView | InputRequiredResult:
        """The ask, answered by what the client declares (mcp_server.rounds); a retry's state is
        checked and used first, then the interrupt the first round made is read back."""
        with json_rpc_refusals():
            caller, deps = token_caller((ASK_SCOPE,)), self._dependencies()
            if ctx.request_state is not None:
                digest = ask_digest(request, caller.tenant_id, caller.principal)
                use_state(ctx.request_state, run_id_of(digest), deps)
                return InterruptView.model_validate(ask(request, caller, deps))
            answer = first_answer(ask(request, caller, deps), title, caller, ctx, deps)
            return answer if isinstance(answer, InputRequiredResult) else InterruptView.model_validate(answer)

    def _ask(self, request: AgentAsk) -> InterruptView:
        return _view(lambda caller: ask(request, caller, self._dependencies()), (ASK_SCOPE,))


def _view(read: Callable[[Caller], dict[str, Any]], scopes: tuple[str, ...]) -> InterruptView:
    with json_rpc_refusals():
        return InterruptView.model_validate(read(token_caller(scopes)))


def token_caller(scopes: tuple[str, ...]) -> Caller:
    from waitgate.wiring.settings import settings

    token = get_access_token()
    if token is None or not token.claims:
        raise UnauthorizedError("A valid bearer token is required.")
    event = {"requestContext": {"authorizer": {"jwt": {"claims": token.claims}}}}
    return caller_from_jwt(event, required_scope=scopes, tenant_claim=settings().tenant_claim)


@contextmanager
def json_rpc_refusals() -> Iterator[None]:
    """waitgate's refusals as JSON-RPC errors: a 4xx is invalid params, a 5xx an internal error."""
    try:
        yield
    except WaitgateError as error:
        code = INTERNAL_ERROR if error.status >= 500 else INVALID_PARAMS
        data = {"code": error.code, "status": error.status} | error.extensions
        raise MCPError(code=code, message=error.detail, data=data) from None
