"""MCP Tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663) on waitgate's record, served
with the SDK's own extension machinery (mcp.server.extension, SEP-2133): docs/mcp.md, "Waiting".

To a client that declares the extension on its request (protocol 2026-07-28), an asking tool whose
interrupt is still pending answers a CreateTaskResult (`resultType: "task"`) instead of the pending
interrupt: the task is the ask, its id the ask's run id, so it exists once the call has answered
(the interrupt is committed before) and survives reconnects, restarts and cold starts. `tasks/get`
reads the interrupt (of the caller's tenant only; another's is not found): `working` while pending,
`completed` once it ended, with the tool's result as it would answer now (resolved with the
decision, or expired). A call answered otherwise (a refusal, an ask already ended, a round of
mcp_server.rounds) is left as it is. `tasks/update` and `tasks/cancel` are not served: an ask never
needs input through the task, and an agent does not withdraw a person's question (METHOD_NOT_FOUND).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp_types import CallToolRequestParams, CallToolResult, RequestParams, TextContent
from pydantic import Field

from waitgate.mcp_server.tools import json_rpc_refusals, token_caller
from waitgate.run.agent_asks import KIND_OF_TOOL
from waitgate.run.records import JSONObject
from waitgate.service.agent_interrupts import READ_SCOPES, read_ask

TASKS: Final = "io.modelcontextprotocol/tasks"
MODERN: Final = frozenset({"2026-07-28"})
POLL_INTERVAL_MS: Final = 2000  # one DynamoDB read a poll; a person takes minutes


class GetTaskParams(RequestParams):
    task_id: str = Field(alias="taskId", min_length=1, max_length=80)


class InterruptTasks(Extension):
    """The Tasks extension whose tasks are waitgate's asks; `dependencies()` as the tools'."""

    identifier = TASKS

    def __init__(self, dependencies: Callable[[], Any]) -> None:
        self._dependencies = dependencies

    def methods(self) -> Sequence[MethodBinding]:
        return (MethodBinding("tasks/get", GetTaskParams, self._get, protocol_versions=MODERN),)

    async def intercept_tool_call(
        self, params: CallToolRequestParams, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        answered = await call_next(ctx)
        if (
            params.name not in KIND_OF_TOOL
            or not _declares_tasks(ctx)
            or not isinstance(answered, CallToolResult)
        ):
            return answered
        view = answered.structured_content
        if answered.is_error or not isinstance(view, dict) or view.get("status") != "pending":
            return answered
        return {"resultType": "task", **_task(view)}

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: GetTaskParams) -> HandlerResult:
        with json_rpc_refusals():
            view = read_ask(params.task_id, token_caller(READ_SCOPES), self._dependencies())
        return _task(view)


def _declares_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    declared = ctx.session.client_capabilities
    extensions = declared.extensions if declared is not None else None
    return ctx.protocol_version in MODERN and extensions is not None and TASKS in extensions


def _task(view: JSONObject) -> JSONObject:
    """The ask as a task: working while pending; completed with the tool's result once it ended."""
    ended = view["status"] != "pending"
    task: JSONObject = {
        "taskId": view["runId"],
        "status": "completed" if ended else "working",
        "statusMessage": f"The interrupt is {view['status']}.",
        "createdAt": view["requestedAt"],
        "lastUpdatedAt": (view.get("resolvedAt") or view["requestedAt"]) if ended else view["requestedAt"],
        "ttlMs": None,  # as long as the ask's record is kept
        "pollIntervalMs": POLL_INTERVAL_MS,
    }
    if ended:
        text = TextContent(type="text", text=json.dumps(view, ensure_ascii=False))
        result = CallToolResult(content=[text], structured_content=view, is_error=False)
        task["result"] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return task
