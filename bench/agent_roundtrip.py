"""One agent-framework mapping end to end on a local stack this bench starts (docs/agents.md): a
Pydantic AI agent on a scripted model (FunctionModel, no network) stops on `send_email`, which requires
approval; `waitgate.sdk.pydantic_ai.hand_over` asks waitgate through `POST /mcp` (the MCP SDK's client).
Timed: from the agent's run to the interrupt recorded (hand_over's answer), and from alice's decision
(the run surface, her JWT) to the agent's resumed run ending with the tool run once. AgentAsks polls
`get_interrupt` every POLL_SECONDS here (its default is 2 s, which a deployment adds up to). Needs the
`pydantic-ai` extra; without it the rows say so."""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from typing import Any

from bench.local_stack import BenchStack, Deadline
from bench.report import Row

GROUP = "agents"
RUNS = 10
LIMIT_SECONDS = 300
POLL_SECONDS = 0.05
ACCEPT = {"action": "accept", "decidedAt": "2026-12-03T10:00:00Z"}
ARGUMENTS = {"to": "bob@example.com", "subject": "Quarterly report"}


def _agent(sent: list[dict[str, str]]) -> Any:
    """Calls send_email (requires_approval) until its return is in the history, then answers "done"."""
    from pydantic_ai import Agent, DeferredToolRequests
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(isinstance(part, ToolReturnPart) for message in messages for part in message.parts):
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart("send_email", dict(ARGUMENTS), tool_call_id="call-1")])

    agent = Agent(FunctionModel(script), output_type=[str, DeferredToolRequests])  # type: ignore[arg-type]

    @agent.tool_plain(requires_approval=True)
    def send_email(to: str, subject: str) -> str:
        """Send an e-mail."""
        sent.append({"to": to, "subject": subject})
        return "sent"

    return agent


async def _samples(stack: BenchStack, deadline: Deadline) -> list[tuple[float, float]]:
    from waitgate.sdk.agent_asks import AgentAsks
    from waitgate.sdk.pydantic_ai import hand_over, results_of

    token = stack.jwt("agent-7", "interrupts:request runs:read")
    alice = stack.jwt("alice", "approvals:respond")
    asks = AgentAsks(stack.api_url, lambda: token, poll_interval=POLL_SECONDS)
    samples = []
    for _ in range(RUNS):
        deadline.check()
        sent: list[dict[str, str]] = []
        agent = _agent(sent)
        started = time.perf_counter()
        stopped = await agent.run("Mail the report to bob.")
        pending = await hand_over(asks, stopped.output, run_key=uuid.uuid4().hex, approvers=["alice"])
        asked = time.perf_counter()
        path = f"/runs/{pending.asked[0].run_id}/interrupts/Interrupt"
        decided = await asyncio.to_thread(stack.request, "POST", path, {"resumeValue": ACCEPT}, alice)
        assert decided.status == 200, decided
        answered = time.perf_counter()
        results = await results_of(asks, pending)
        resumed = await agent.run(message_history=stopped.all_messages(), deferred_tool_results=results)
        assert (resumed.output, sent) == ("done", [ARGUMENTS]), (resumed.output, sent)
        samples.append(((asked - started) * 1000, (time.perf_counter() - answered) * 1000))
    return samples


def run() -> list[Row]:
    try:
        import pydantic_ai  # noqa: F401
    except ModuleNotFoundError:
        return [
            Row(
                GROUP, "Pydantic AI round trip: skipped", 0, "", note="the pydantic-ai extra is not installed"
            )
        ]
    deadline = Deadline(LIMIT_SECONDS, "agent round trip")
    with BenchStack() as stack:
        samples = asyncio.run(_samples(stack, deadline))
    note = f"{RUNS} runs, one after the other (the first a cold start); get_interrupt every {POLL_SECONDS} s"
    return [
        Row(
            GROUP,
            "Pydantic AI: agent run to interrupt recorded, median",
            statistics.median(s[0] for s in samples),
            "ms",
            note=note,
        ),
        Row(
            GROUP,
            "Pydantic AI: decision to the resumed run's end, median",
            statistics.median(s[1] for s in samples),
            "ms",
            note=note + "; the tool ran once each time",
        ),
    ]


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
