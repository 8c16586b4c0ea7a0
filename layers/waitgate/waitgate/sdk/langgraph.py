"""LangGraph and LangChain hand their interrupts to waitgate (`pip install waitgate[langgraph]`;
docs/agents.md). When a graph run stops on `__interrupt__`, `hand_over` asks waitgate for each tool
call under review (one approval per call, a clarification for a respond-only call), with a re-entry
key from the thread and the interrupt's id; `resume_command` waits for the decisions and gives the
`Command(resume=...)` that resumes the graph with them, keyed by interrupt id.

    result = graph.invoke(inputs, config, version="v2")
    pending = await hand_over(asks, result, thread_id="t-1", approvers=["alice"])
    result = graph.invoke(await resume_command(asks, pending), config, version="v2")

The shapes (HITLRequest, ToolApprovalRequest, Agent Inbox's HumanInterrupt) are read and written
in waitgate.sdk.langgraph_shapes; `langgraph` is imported only to build the Command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from waitgate.sdk.agent_asks import AgentAsks, AskedInterrupt, Outcomes
from waitgate.sdk.langgraph_shapes import (
    ToolReview,
    allowed_in_schema,
    hitl_decision,
    human_response,
    read_hitl_request,
    read_human_interrupt,
    read_tool_approval_request,
)
from waitgate.sdk.tool_approvals import MappingRefused, ToolVerdict, re_entry_key

Shape = Literal["hitl", "tool_approval", "human_interrupt"]


@dataclass(frozen=True)
class PendingReview:
    """One LangGraph interrupt handed over: its id, its shape, its reviews and their waitgate asks."""

    interrupt_id: str
    shape: Shape
    reviews: tuple[ToolReview, ...]
    asked: tuple[AskedInterrupt, ...]

    def resume_value(self, verdicts: Sequence[ToolVerdict]) -> Any:
        """The interrupt's resume value: `{decisions: [...]}` in request order, one decision, or a
        list of HumanResponses."""
        if self.shape == "hitl":
            return {"decisions": [hitl_decision(r, v) for r, v in zip(self.reviews, verdicts, strict=True)]}
        if self.shape == "tool_approval":
            return hitl_decision(self.reviews[0], verdicts[0])
        return [human_response(r, v) for r, v in zip(self.reviews, verdicts, strict=True)]


def interrupts_of(result: Any) -> list[Any]:
    """The interrupts a run stopped on: `result["__interrupt__"]` (v1) or `result.interrupts` (v2)."""
    if isinstance(result, Mapping):
        return list(result.get("__interrupt__", ()))
    return list(getattr(result, "interrupts", ()) or ())


def read_interrupt(interrupt: Any) -> tuple[Shape, list[ToolReview]]:
    """A LangGraph Interrupt's value as the reviews it holds (refused by name when it is no shape
    waitgate reads)."""
    value, interrupt_id = interrupt.value, str(interrupt.id)
    if isinstance(value, Mapping) and "action_requests" in value:
        count = len(value.get("action_requests") or ())
        return "hitl", read_hitl_request(value, call_ids=[f"{interrupt_id}-{i}" for i in range(count)])
    if isinstance(value, Mapping) and value.get("type") == "tool_approval":
        allowed = allowed_in_schema(_json_schema(getattr(interrupt, "response_schema", None)))
        return "tool_approval", [read_tool_approval_request(value, allowed=allowed)]
    if isinstance(value, list) and value and all(isinstance(item, Mapping) for item in value):
        reviews = [read_human_interrupt(item, call_id=f"{interrupt_id}-{i}") for i, item in enumerate(value)]
        return "human_interrupt", reviews
    raise MappingRefused(
        "__interrupt__.value", "not a HITLRequest, ToolApprovalRequest or HumanInterrupt list"
    )


async def hand_over(asks: AgentAsks, result: Any, *, thread_id: str, **asking: Any) -> list[PendingReview]:
    """Ask waitgate for every tool call the run stopped on; `asking` goes to each approval
    (`approvers`, `approver_groups`, `approver_roles`, `timeout_seconds`, `title`). Retried with the
    same thread and interrupts, it asks nobody twice."""
    pending = []
    for interrupt in interrupts_of(result):
        shape, reviews = read_interrupt(interrupt)
        asked = []
        for index, review in enumerate(reviews):
            key = re_entry_key("langgraph", thread_id, str(interrupt.id), str(index))
            asked.append(await ask_review(asks, review, key, asking))
        pending.append(PendingReview(str(interrupt.id), shape, tuple(reviews), tuple(asked)))
    return pending


async def ask_review(
    asks: AgentAsks, review: ToolReview, key: str, asking: Mapping[str, Any]
) -> AskedInterrupt:
    if review.answered_on_behalf:
        timeout = asking.get("timeout_seconds")
        return await asks.ask_question(review.call.question(request_key=key, timeout_seconds=timeout))
    return await asks.request_approval(
        review.call.approval(request_key=key, actions=review.actions, **asking)
    )


async def resume_value_map(asks: Outcomes, pending: Sequence[PendingReview]) -> dict[str, Any]:
    """`{<interrupt id>: <resume value>}` once every ask has ended (polling `asks.outcome`)."""
    resumes = {}
    for review in pending:
        verdicts = []
        for asked, tool_review in zip(review.asked, review.reviews, strict=True):
            ended = await asks.outcome(asked.run_id)
            verdicts.append(ToolVerdict.of(ended.status, ended.resume_value, tool_review.call))
        resumes[review.interrupt_id] = review.resume_value(verdicts)
    return resumes


async def resume_command(asks: Outcomes, pending: Sequence[PendingReview]) -> Any:
    """LangGraph's `Command(resume={<interrupt id>: ...})` with every decision."""
    from langgraph.types import Command

    return Command(resume=await resume_value_map(asks, pending))


def _json_schema(response_schema: Any) -> Any:
    """A per_call interrupt's response_schema: a JSON Schema, or the Python type LangGraph keeps."""
    if response_schema is None or isinstance(response_schema, Mapping):
        return response_schema
    from pydantic import TypeAdapter

    return TypeAdapter(response_schema).json_schema()
