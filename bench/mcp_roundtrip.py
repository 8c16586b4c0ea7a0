"""waitgate over MCP on a local stack this bench starts (docs/mcp.md), with the official SDK's client
over Streamable HTTP, one session for all calls: how long `request_approval` takes from the call to
its answer (the interrupt recorded, alice notified, `pending` back), and from alice's decision (the run
surface, JWT) to the client's `get_interrupt` reading it resolved. And the MCP way (docs/mcp.md,
"Waiting"): alice's own ask through a client that can open a page, from the call to the round's
InputRequiredResult (the interrupt recorded, her page and the requestState minted), and from her
decision on that page to the client's retry answering it. 10 asks of each, one after the other."""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from typing import Any, Literal

from bench.local_stack import BenchStack, Deadline
from bench.report import Row

GROUP = "MCP"
RUNS = 10
LIMIT_SECONDS = 300
ACCEPT = {"action": "accept", "decidedAt": "2026-12-02T10:00:00Z"}


async def _asks(stack: BenchStack, deadline: Deadline) -> list[tuple[float, float]]:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    agent = stack.jwt("agent-7", "interrupts:request runs:read")
    alice = stack.jwt("alice", "approvals:respond")
    samples = []
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {agent}"}, timeout=60) as http,
        Client(streamable_http_client(stack.api_url + "/mcp", http_client=http)) as client,
    ):
        for _ in range(RUNS):
            arguments = {"title": "Ship?", "approvers": ["alice"], "request_key": uuid.uuid4().hex}
            started = time.perf_counter()
            asked: dict[str, Any] = (await client.call_tool("request_approval", arguments)).structured_content
            answered = time.perf_counter()
            path = f"/runs/{asked['runId']}/interrupts/Interrupt"
            decided = await asyncio.to_thread(stack.request, "POST", path, {"resumeValue": ACCEPT}, alice)
            assert decided.status == 200, decided
            while True:
                read = await client.call_tool("get_interrupt", {"run_id": asked["runId"]})
                if read.structured_content and read.structured_content["status"] == "resolved":
                    break
                deadline.check()
                await asyncio.sleep(0.01)
            samples.append(((answered - started) * 1000, (time.perf_counter() - answered) * 1000))
    return samples


async def _rounds(stack: BenchStack) -> list[tuple[float, float]]:
    """alice's own asks, each round driven with the SDK session's own calls: (call → round, ms),
    (her decision on the page → the retry's answer, ms)."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import ElicitResult, InputRequiredResult, InputResponses

    alice = stack.jwt("alice", "interrupts:request runs:read approvals:respond")

    async def unused(context: Any, params: Any) -> ElicitResult:
        raise AssertionError("the rounds are driven by hand")

    samples = []
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {alice}"}, timeout=60) as http,
        Client(
            streamable_http_client(stack.api_url + "/mcp", http_client=http), elicitation_callback=unused
        ) as client,
    ):
        for _ in range(RUNS):
            arguments = {"title": "Mine?", "approvers": ["alice"], "request_key": uuid.uuid4().hex}
            started = time.perf_counter()
            first = await client.session.call_tool("request_approval", arguments, allow_input_required=True)
            offered = time.perf_counter()
            assert isinstance(first, InputRequiredResult) and first.input_requests, first
            page: Any = first.input_requests["decision"].params
            link = page.url.removeprefix(stack.api_url)
            decided = await asyncio.to_thread(stack.request, "POST", link, {"resumeValue": ACCEPT})
            assert decided.status == 200, decided
            done: InputResponses = {"decision": ElicitResult(action="accept")}
            answer = await client.session.call_tool(
                "request_approval", arguments, input_responses=done, request_state=first.request_state
            )
            assert answer.structured_content and answer.structured_content["status"] == "resolved", answer
            samples.append(((offered - started) * 1000, (time.perf_counter() - offered) * 1000))
    return samples


async def _tasks(stack: BenchStack, deadline: Deadline) -> list[tuple[float, float]]:
    """An agent's asks through a client that declares MCP Tasks (a claim of `resultType: "task"` on
    the SDK client's extension machinery, the call answered as it came): (call → task created, ms),
    (alice's resolve → the client's tasks/get seeing it completed, ms)."""
    import httpx2
    from mcp import Client
    from mcp.client.extension import ClientExtension, ResultClaim
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import Request, Result
    from pydantic import ConfigDict, TypeAdapter

    class Created(Result):
        model_config = ConfigDict(extra="allow")
        result_type: Literal["task"] = "task"
        task_id: str

    async def unresolved(created: Created, context: Any) -> Any:
        raise AssertionError("the bench reads its tasks by hand")

    class Tasks(ClientExtension):
        identifier = "io.modelcontextprotocol/tasks"

        def claims(self) -> Any:
            return (ResultClaim(result_type="task", model=Created, resolve=unresolved),)

    agent = stack.jwt("agent-7", "interrupts:request runs:read")
    alice = stack.jwt("alice", "approvals:respond")
    samples = []
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {agent}"}, timeout=60) as http,
        Client(
            streamable_http_client(stack.api_url + "/mcp", http_client=http), extensions=[Tasks()]
        ) as client,
    ):
        for _ in range(RUNS):
            arguments = {"title": "Ship?", "approvers": ["alice"], "request_key": uuid.uuid4().hex}
            started = time.perf_counter()
            created = await client.session.call_tool("request_approval", arguments, allow_claimed=True)
            answered = time.perf_counter()
            assert isinstance(created, Created), created
            path = f"/runs/{created.task_id}/interrupts/Interrupt"
            decided = await asyncio.to_thread(stack.request, "POST", path, {"resumeValue": ACCEPT}, alice)
            assert decided.status == 200, decided
            get = Request[dict[str, Any], str](method="tasks/get", params={"taskId": created.task_id})
            session: Any = client.session  # tasks/get is no method of the SDK's typed surface
            while (await session.send_request(get, TypeAdapter(dict[str, Any])))["status"] == "working":
                deadline.check()
                await asyncio.sleep(0.01)
            samples.append(((answered - started) * 1000, (time.perf_counter() - answered) * 1000))
    return samples


def run() -> list[Row]:
    deadline = Deadline(LIMIT_SECONDS, "MCP round trip")
    with BenchStack() as stack:
        samples = asyncio.run(_asks(stack, deadline))
        rounds = asyncio.run(_rounds(stack))
        tasks = asyncio.run(_tasks(stack, deadline))
    note = f"{RUNS} asks, one after the other, one client session; the first is a cold start"
    asked = statistics.median(sample[0] for sample in samples)
    seen = statistics.median(sample[1] for sample in samples)
    return [
        Row(GROUP, "request_approval: call to pending answer, median", asked, "ms", note=note),
        Row(GROUP, "resolve to decision seen by get_interrupt, median", seen, "ms", note=note),
        Row(
            GROUP,
            "own ask: call to round (page + requestState), median",
            statistics.median(sample[0] for sample in rounds),
            "ms",
            note=note,
        ),
        Row(
            GROUP,
            "own ask: page decision to the retry's answer, median",
            statistics.median(sample[1] for sample in rounds),
            "ms",
            note=note,
        ),
        Row(
            GROUP,
            "MCP Tasks: tool call to task created, median",
            statistics.median(t[0] for t in tasks),
            "ms",
            note=note,
        ),
        Row(
            GROUP,
            "MCP Tasks: resolve to completed seen by tasks/get, median",
            statistics.median(t[1] for t in tasks),
            "ms",
            note=note,
        ),
    ]
