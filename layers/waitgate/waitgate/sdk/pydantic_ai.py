"""Pydantic AI hands its deferred tools to waitgate (`pip install waitgate[pydantic-ai]`;
docs/agents.md). A run whose output is `DeferredToolRequests` asks one waitgate approval per call in
`approvals` and one clarification per call in `calls` deferred as a question (a person's answer is
its result); `results_of` reads the decisions back as `DeferredToolResults`: `ToolApproved()`,
`ToolApproved(override_args=<the edited arguments>)` from an edit-accept, `ToolDenied(<the reviewer's
comment>)`, or the answer as the call's result.

    result = await agent.run("Mail the report to bob")
    if isinstance(result.output, DeferredToolRequests):
        pending = await hand_over(asks, result.output, run_key="order-7", approvers=["alice"])
        results = await results_of(asks, pending)
        result = await agent.run(message_history=result.all_messages(), deferred_tool_results=results)

A call waiting for external execution (not a person), or per-call `metadata`, is refused by name:
waitgate carries neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from waitgate.sdk.agent_asks import AgentAsks, AskedInterrupt, Outcomes
from waitgate.sdk.tool_approvals import MappingRefused, ToolCall, ToolVerdict, json_arguments, re_entry_key

Asked = Literal["approval", "question"]
FEEDBACK: Final = "feedback"
DEFAULT_DENIAL: Final = "The tool call was denied."  # ToolDenied's own default message


@dataclass(frozen=True)
class DeferredCall:
    """One deferred call: what it waits for (an approval, or a person's answer) and the call."""

    waits_for: Asked
    call: ToolCall


@dataclass(frozen=True)
class PendingCalls:
    calls: tuple[DeferredCall, ...]
    asked: tuple[AskedInterrupt, ...]


def read_requests(requests: Any) -> list[DeferredCall]:
    """A DeferredToolRequests' calls in order (approvals, then questions); refused by name otherwise."""
    for call_id, metadata in (requests.metadata or {}).items():
        if metadata:
            raise MappingRefused(f"metadata.{call_id}", "waitgate cannot carry a deferred call's metadata")
    deferred = [
        DeferredCall("approval", _call(part, f"approvals[{i}]")) for i, part in enumerate(requests.approvals)
    ]
    for index, part in enumerate(requests.calls):
        if requests.kind(part.tool_call_id) != "question":
            raise MappingRefused(f"calls[{index}]", "an external call: waitgate asks people, not systems")
        deferred.append(DeferredCall("question", _call(part, f"calls[{index}]")))
    return deferred


def write_requests(calls: Sequence[DeferredCall]) -> Any:
    """The DeferredToolRequests these calls are (the inverse of `read_requests`)."""
    from pydantic_ai import DeferredToolRequests
    from pydantic_ai.messages import ToolCallPart

    def part(call: ToolCall) -> ToolCallPart:
        return ToolCallPart(call.name, dict(call.arguments), tool_call_id=call.call_id)

    approvals = [part(deferred.call) for deferred in calls if deferred.waits_for == "approval"]
    questions = [part(deferred.call) for deferred in calls if deferred.waits_for == "question"]
    kinds = {deferred.call.call_id: "question" for deferred in calls if deferred.waits_for == "question"}
    return DeferredToolRequests(calls=questions, approvals=approvals, _kinds=kinds)  # type: ignore[arg-type]


async def hand_over(asks: AgentAsks, requests: Any, *, run_key: str, **asking: Any) -> PendingCalls:
    """Ask waitgate for each deferred call; `run_key` (your id of this run) and the call's id make the
    re-entry key; `asking` goes to each approval (`approvers`, `timeout_seconds`, ...)."""
    calls = read_requests(requests)
    asked = []
    for deferred in calls:
        key = re_entry_key("pydantic-ai", run_key, deferred.call.call_id)
        if deferred.waits_for == "question":
            timeout = asking.get("timeout_seconds")
            asked.append(
                await asks.ask_question(deferred.call.question(request_key=key, timeout_seconds=timeout))
            )
        else:
            asked.append(await asks.request_approval(deferred.call.approval(request_key=key, **asking)))
    return PendingCalls(tuple(calls), tuple(asked))


async def results_of(asks: Outcomes, pending: PendingCalls) -> Any:
    """The DeferredToolResults of every decision, once every ask has ended."""
    verdicts = []
    for deferred, asked in zip(pending.calls, pending.asked, strict=True):
        ended = await asks.outcome(asked.run_id)
        verdicts.append(ToolVerdict.of(ended.status, ended.resume_value, deferred.call))
    return write_results(pending.calls, verdicts)


def write_results(calls: Sequence[DeferredCall], verdicts: Sequence[ToolVerdict]) -> Any:
    from pydantic_ai import DeferredToolResults, ToolApproved, ToolDenied

    results = DeferredToolResults()
    for deferred, verdict in zip(calls, verdicts, strict=True):
        call_id = deferred.call.call_id
        if deferred.waits_for == "question":
            results.calls[call_id] = verdict.answer if verdict.answer is not None else verdict.message
        elif verdict.approved:
            results.approvals[call_id] = ToolApproved(
                override_args=verdict.arguments if verdict.edited else None
            )
            if verdict.message:  # an accept's comment: the tool reads it as `ctx.tool_call_metadata`
                results.metadata[call_id] = {FEEDBACK: verdict.message}
        else:
            results.approvals[call_id] = ToolDenied(verdict.message) if verdict.message else ToolDenied()
        if verdict.decided_by is not None:
            results.answered_by[call_id] = verdict.decided_by
    return results


def read_results(calls: Sequence[DeferredCall], results: Any) -> list[ToolVerdict]:
    """The verdicts DeferredToolResults hold (the inverse of `write_results`)."""
    verdicts = []
    for deferred in calls:
        call_id, decided_by = deferred.call.call_id, results.answered_by.get(deferred.call.call_id)
        if deferred.waits_for == "question":
            verdicts.append(ToolVerdict(False, decided_by=decided_by, answer=results.calls[call_id]))
            continue
        approval = results.approvals[call_id]
        if getattr(approval, "kind", None) == "tool-approved":
            edited = approval.override_args is not None
            arguments = approval.override_args if edited else dict(deferred.call.arguments)
            comment = results.metadata.get(call_id, {}).get(FEEDBACK)
            verdicts.append(ToolVerdict(True, arguments, edited, comment, decided_by))
        else:
            message = None if approval.message == DEFAULT_DENIAL else approval.message
            verdicts.append(ToolVerdict(False, message=message, decided_by=decided_by))
    return verdicts


def _call(part: Any, field: str) -> ToolCall:
    arguments = {} if part.args is None else part.args
    return ToolCall(part.tool_name, json_arguments(arguments, f"{field}.args"), str(part.tool_call_id))
