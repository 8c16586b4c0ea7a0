"""A client half of MCP Tasks for the tests, on the SDK's own client extension machinery
(mcp.client.extension: a ResultClaim for `resultType: "task"`): the `mcp` SDK ships none yet
(docs/mcp.md, "Waiting"). A claimed task is polled with `tasks/get` until it ends, so the client's
`call_tool` answers the task's result, as the Tasks extension's clients do; `on_created(taskId)` runs
after the first poll found it working (where a test lets a person decide)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import anyio
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp_types import CallToolResult, Request, Result
from pydantic import ConfigDict, TypeAdapter

TASKS = "io.modelcontextprotocol/tasks"
POLL_SECONDS = 0.05


class CreatedTask(Result):
    model_config = ConfigDict(extra="allow")

    result_type: Literal["task"] = "task"
    task_id: str
    status: str


class PollingTasks(ClientExtension):
    identifier = TASKS

    def __init__(self, on_created: Callable[[str], Awaitable[None]] | None = None) -> None:
        self._on_created = on_created
        self.created: list[CreatedTask] = []
        self.polled: list[dict[str, Any]] = []

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return (ResultClaim(result_type="task", model=CreatedTask, resolve=self._resolve),)

    async def _resolve(self, created: CreatedTask, ctx: ClaimContext) -> CallToolResult:
        self.created.append(created)
        while True:
            task = await get_task(ctx.session, created.task_id)
            self.polled.append(task)
            if task["status"] != "working":
                return CallToolResult.model_validate(task["result"])
            if self._on_created is not None and len(self.polled) == 1:
                await self._on_created(created.task_id)
            else:
                await anyio.sleep(POLL_SECONDS)


async def get_task(session: Any, task_id: str) -> dict[str, Any]:
    """`tasks/get` through the SDK session's own request path."""
    request = Request[dict[str, Any], str](method="tasks/get", params={"taskId": task_id})
    task: dict[str, Any] = await session.send_request(request, TypeAdapter(dict[str, Any]))
    return task
