"""The OpenAI Agents SDK hands its tool approvals to waitgate (`pip install waitgate[openai-agents]`;
docs/agents.md). A run that stops on tools with `needs_approval` has `result.interruptions`, one
`ToolApprovalItem` each: `hand_over` asks one waitgate approval per item (the tool's name in the
title, its arguments as the artifact) and keeps the `RunState` as its JSON (size-checked) beside the
asks; `resume_state` waits for the decisions and gives the state back with `state.approve(item)` or
`state.reject(item, rejection_message=<the reviewer's comment>)` applied, ready for `Runner.run`.

    result = await Runner.run(agent, "Mail the report to bob")
    pending = await hand_over(asks, result, run_key="order-7", approvers=["alice"])
    store(pending.to_json())                         # the run may stop here; hours later:
    state = await resume_state(asks, PendingApprovals.from_json(stored), agent)
    result = await Runner.run(agent, state)

The SDK approves calls as the model made them (it binds each call id to a digest of its arguments); an
edit-accept is applied by replacing that call's arguments in the kept state, and dropping the SDK's
binding of that one call, before the state is restored: the tool runs with the edited arguments and
the run's history shows the edited call. Any other call keeps the SDK's binding.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from waitgate.sdk.agent_asks import AgentAsks, AskedInterrupt, Outcomes
from waitgate.sdk.tool_approvals import MappingRefused, ToolCall, ToolVerdict, json_arguments, re_entry_key

MAX_STATE_BYTES: Final = 1024 * 1024


@dataclass(frozen=True)
class PendingApprovals:
    """A stopped run: its RunState's JSON and, per interruption in order, the call and its ask."""

    state: str
    calls: tuple[ToolCall, ...]
    asked: tuple[AskedInterrupt, ...]

    def to_json(self) -> str:
        calls = [{"name": c.name, "arguments": dict(c.arguments), "callId": c.call_id} for c in self.calls]
        return json.dumps({"state": self.state, "calls": calls, "runIds": [a.run_id for a in self.asked]})

    @classmethod
    def from_json(cls, kept: str) -> PendingApprovals:
        document = json.loads(kept)
        calls = tuple(ToolCall(c["name"], c["arguments"], c["callId"]) for c in document["calls"])
        asked = tuple(_asked_stub(run_id) for run_id in document["runIds"])
        return cls(document["state"], calls, asked)


def tool_call_of(item: Any, index: int) -> ToolCall:
    """A ToolApprovalItem as the call it asks for (a function tool's call: name, JSON arguments)."""
    raw = item.raw_item
    field = f"interruptions[{index}].raw_item"
    raw_type = raw.get("type") if isinstance(raw, Mapping) else getattr(raw, "type", None)
    if raw_type != "function_call":
        raise MappingRefused(f"{field}.type", f"{raw_type!r}: waitgate asks about function tool calls")
    arguments = raw.get("arguments") if isinstance(raw, Mapping) else raw.arguments
    call_id = raw.get("call_id") if isinstance(raw, Mapping) else raw.call_id
    return ToolCall(str(item.tool_name), json_arguments(arguments, f"{field}.arguments"), str(call_id))


def stopped_run(result: Any, *, max_state_bytes: int = MAX_STATE_BYTES) -> PendingApprovals:
    """The run's interruptions as calls and its RunState as JSON (refused above `max_state_bytes`:
    keep the state yourself and a pointer to it), nothing asked yet."""
    calls = tuple(tool_call_of(item, index) for index, item in enumerate(result.interruptions))
    state = result.to_state().to_string()
    if (size := len(state.encode("utf-8"))) > max_state_bytes:
        raise MappingRefused("RunState", f"{size} bytes, above {max_state_bytes}: keep a pointer to it")
    return PendingApprovals(state, calls, ())


async def hand_over(
    asks: AgentAsks, result: Any, *, run_key: str, max_state_bytes: int = MAX_STATE_BYTES, **asking: Any
) -> PendingApprovals:
    """Ask waitgate for each of `result.interruptions`; `run_key` (your id of this run) and each call's
    id make the re-entry key; `asking` goes to each approval (`approvers`, `timeout_seconds`, ...)."""
    stopped = stopped_run(result, max_state_bytes=max_state_bytes)
    asked = []
    for call in stopped.calls:
        key = re_entry_key("openai-agents", run_key, call.call_id)
        asked.append(await asks.request_approval(call.approval(request_key=key, **asking)))
    return PendingApprovals(stopped.state, stopped.calls, tuple(asked))


async def resume_state(asks: Outcomes, pending: PendingApprovals, agent: Any) -> Any:
    """The kept RunState with every decision applied, once every ask has ended."""
    verdicts = []
    for call, asked in zip(pending.calls, pending.asked, strict=True):
        ended = await asks.outcome(asked.run_id)
        verdicts.append(ToolVerdict.of(ended.status, ended.resume_value, call))
    return await restored_state(pending, verdicts, agent)


async def restored_state(pending: PendingApprovals, verdicts: Sequence[ToolVerdict], agent: Any) -> Any:
    """The kept RunState, edited arguments in place, restored with the verdicts applied."""
    from agents import RunState

    document = json.loads(pending.state)
    for call, verdict in zip(pending.calls, verdicts, strict=True):
        if verdict.edited and verdict.arguments is not None:
            _replace_arguments(document, call.call_id, json.dumps(verdict.arguments))
            # The SDK binds a call id to the model's arguments (a digest); the reviewer replaced them.
            document.get("context", {}).get("tool_invocations", {}).pop(call.call_id, None)
    state = await RunState.from_json(agent, document)
    apply_verdicts(state, verdicts)
    return state


def apply_verdicts(state: Any, verdicts: Sequence[ToolVerdict]) -> None:
    """`state.approve(item)` or `state.reject(item, rejection_message=...)`, interruption by interruption."""
    interruptions = state.get_interruptions()
    if len(interruptions) != len(verdicts):
        raise MappingRefused("interruptions", f"{len(interruptions)} in the state, {len(verdicts)} decisions")
    for item, verdict in zip(interruptions, verdicts, strict=True):
        if verdict.approved:
            state.approve(item)
        else:
            state.reject(item, rejection_message=verdict.message)


def _replace_arguments(node: Any, call_id: str, arguments: str) -> None:
    """Every function call `call_id` in the state's JSON, given the edited `arguments`."""
    if isinstance(node, dict):
        if node.get("type") == "function_call" and node.get("call_id") == call_id and "arguments" in node:
            node["arguments"] = arguments
        for member in node.values():
            _replace_arguments(member, call_id, arguments)
    elif isinstance(node, list):
        for member in node:
            _replace_arguments(member, call_id, arguments)


def _asked_stub(run_id: str) -> AskedInterrupt:
    """An ask known by its run alone (as kept): `outcome` reads the rest."""
    return AskedInterrupt(run_id=run_id, node_id="", interrupt_id="", kind="approval", status="pending")
