"""Agent frameworks hand their tool approvals to waitgate on the local stack (issue 32): per framework
(LangGraph/LangChain, OpenAI Agents SDK, Pydantic AI, AG-UI), a real agent on a scripted model stops
on send_email, which needs approval; waitgate asks alice through `POST /mcp` (the MCP SDK's client);
she gets her link by e-mail and sees the tool and its arguments; she edits them and accepts, and the
agent resumes with the edited arguments and the tool runs once; a rejection resumes with her comment."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable
from typing import Any, TypeVar

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.waiting import WAIT_BOUND_SECONDS, wait_for
from tests.support.scripted_agents import (
    FIRST_ARGUMENTS,
    Outbox,
    langgraph_agent,
    openai_agent,
    pydantic_ai_agent,
)
from waitgate.sdk import WaitgateClient
from waitgate.sdk.agent_asks import AgentAsks, AskedInterrupt
from waitgate.sdk.tool_approvals import ToolCall, ToolVerdict, re_entry_key

pytestmark = pytest.mark.e2e
EDITED = {"to": "carol@example.com", "subject": "Quarterly report (final)"}
ASK = "Mail the report to bob."
T = TypeVar("T")


def bounded(step: Awaitable[T]) -> T:
    """An async step of the agent's, given up after the e2e tests' one generous bound."""

    async def within() -> T:
        return await asyncio.wait_for(step, WAIT_BOUND_SECONDS)

    return asyncio.run(within())


def agent_asks(stack: LocalStackHandle) -> AgentAsks:
    token = stack.jwt("agent-7", "interrupts:request runs:read", tenant="acme")
    return AgentAsks(stack.api_url, lambda: token, poll_interval=0.2)


def alices_link(stack: LocalStackHandle, run_id: str) -> str:
    def listed() -> str | None:
        found = run_local(
            ["dev-inbox", "--recipient", "alice", "--run-id", run_id, "--link"], stack.environment
        )
        return found.stdout.strip() or None

    link: str = wait_for(listed, what=f"alice's notice of {run_id}")
    return link


def alice_decides(stack: LocalStackHandle, run_id: str, decision: dict[str, Any]) -> None:
    """alice opens her e-mailed link, sees the tool and its arguments, and decides."""
    link = alices_link(stack, run_id)
    seen = WaitgateClient(stack.api_url).inspect_by_token(link).payload["data"]
    assert (seen["title"], seen["artifactType"], seen["artifact"]) == (
        "Run send_email?",
        "tool-call",
        FIRST_ARGUMENTS,
    )
    assert seen["actions"] == ["accept", "edit-accept", "reject"]
    answer = stack.http.post(
        link.removeprefix(stack.api_url), {"resumeValue": decision | {"decidedAt": _now()}}
    )
    assert (answer.status, answer.json()["status"]) == (200, "resolved"), answer.body


def _now() -> str:
    return "2026-12-03T10:00:00Z"


EDIT_ACCEPT = {"action": "edit-accept", "editedArtifactData": EDITED}
REJECTION = {"action": "reject", "feedback": "Not to bob: carol owns the report now."}


@pytest.mark.parametrize("decision", [EDIT_ACCEPT, REJECTION], ids=["edit-accept", "reject"])
def test_a_langgraph_agent_resumes_with_alices_decision(
    local_stack: LocalStackHandle, decision: dict[str, Any]
) -> None:
    from waitgate.sdk.langgraph import hand_over, resume_command

    asks, outbox = agent_asks(local_stack), Outbox()
    agent = langgraph_agent(outbox)
    thread = f"thread-{uuid.uuid4().hex[:8]}"
    config = {"configurable": {"thread_id": thread}}
    stopped = agent.invoke({"messages": [{"role": "user", "content": ASK}]}, config, version="v2")
    pending = bounded(hand_over(asks, stopped, thread_id=thread, approvers=["alice"]))
    # a retried hand-over is the same interrupt: nobody is asked twice
    again = bounded(hand_over(asks, stopped, thread_id=thread, approvers=["alice"]))
    assert [p.asked for p in again] == [p.asked for p in pending]
    alice_decides(local_stack, pending[0].asked[0].run_id, decision)
    result = agent.invoke(bounded(resume_command(asks, pending)), config, version="v2")
    if decision is EDIT_ACCEPT:
        assert outbox.sent == [EDITED]
    else:
        assert outbox.sent == []
        tool_messages = [m.content for m in result.value["messages"] if m.type == "tool"]
        assert any(REJECTION["feedback"] in content for content in tool_messages)


@pytest.mark.parametrize("decision", [EDIT_ACCEPT, REJECTION], ids=["edit-accept", "reject"])
def test_an_openai_agents_run_resumes_from_its_kept_state(
    local_stack: LocalStackHandle, decision: dict[str, Any]
) -> None:
    from agents import Runner

    from waitgate.sdk.openai_agents import PendingApprovals, hand_over, resume_state

    asks, outbox = agent_asks(local_stack), Outbox()

    async def stop() -> str:
        result = await Runner.run(openai_agent(outbox), ASK)
        pending = await hand_over(asks, result, run_key=uuid.uuid4().hex, approvers=["alice"])
        return pending.to_json()  # the agent keeps this and may stop here

    kept = bounded(stop())
    alice_decides(local_stack, PendingApprovals.from_json(kept).asked[0].run_id, decision)

    async def resume() -> Any:
        agent = openai_agent(outbox)  # a new process: the agent again, the state from what was kept
        state = await resume_state(asks, PendingApprovals.from_json(kept), agent)
        return await Runner.run(agent, state)

    result = bounded(resume())
    if decision is EDIT_ACCEPT:
        assert (outbox.sent, result.final_output) == ([EDITED], "done")
    else:
        assert outbox.sent == []
        outputs = [str(item.raw_item) for item in result.new_items if item.type == "tool_call_output_item"]
        assert any(REJECTION["feedback"] in output for output in outputs)


@pytest.mark.parametrize("decision", [EDIT_ACCEPT, REJECTION], ids=["edit-accept", "reject"])
def test_a_pydantic_ai_run_resumes_with_deferred_tool_results(
    local_stack: LocalStackHandle, decision: dict[str, Any]
) -> None:
    from waitgate.sdk.pydantic_ai import hand_over, results_of

    asks, outbox = agent_asks(local_stack), Outbox()
    agent = pydantic_ai_agent(outbox)

    async def scenario() -> Any:
        stopped = await agent.run(ASK)
        pending = await hand_over(asks, stopped.output, run_key=uuid.uuid4().hex, approvers=["alice"])
        await asyncio.to_thread(alice_decides, local_stack, pending.asked[0].run_id, decision)
        results = await results_of(asks, pending)
        return await agent.run(message_history=stopped.all_messages(), deferred_tool_results=results)

    result = bounded(scenario())
    if decision is EDIT_ACCEPT:
        assert (outbox.sent, result.output) == ([EDITED], "done")
    else:
        assert outbox.sent == []
        returns = [p.content for m in result.all_messages() for p in m.parts if p.part_kind == "tool-return"]
        assert returns == [REJECTION["feedback"]]


def test_an_ag_ui_run_pauses_on_a_waitgate_interrupt_and_a_replayed_resume_decides_once(
    local_stack: LocalStackHandle,
) -> None:
    from waitgate.sdk.agui import interrupt_of, resolve_resume, run_finished

    asks, outbox = agent_asks(local_stack), Outbox()
    call = ToolCall("send_email", FIRST_ARGUMENTS, "call-1")
    thread = f"thread-{uuid.uuid4().hex[:8]}"
    key = re_entry_key("ag-ui", thread, call.call_id)
    asked = bounded(asks.request_approval(call.approval(request_key=key, approvers=["alice"])))
    # The agent server ends its stream: RUN_FINISHED, paused on the interrupt
    finished = run_finished(thread, "run-1", [interrupt_of(asked, message="Run send_email?", call=call)])
    interrupts = finished.model_dump(mode="json", by_alias=True)["outcome"]["interrupts"]
    assert (interrupts[0]["reason"], interrupts[0]["toolCallId"]) == ("tool_call", "call-1")
    # alice answers in the AG-UI client; its next run carries resume[], sent twice (a replay)
    alices_link(local_stack, asked.run_id)  # she was told, as every approver is
    alice = WaitgateClient(
        local_stack.api_url, lambda: local_stack.jwt("alice", "approvals:respond", tenant="acme")
    )
    resume = [
        {
            "interruptId": asked.interrupt_id,
            "status": "resolved",
            "payload": EDIT_ACCEPT | {"decidedAt": _now()},
        }
    ]
    first = resolve_resume(alice, thread, resume, interrupts)
    replayed = resolve_resume(alice, thread, resume, interrupts)
    assert [(r.status, r.replayed) for r in first + replayed] == [("resolved", False), ("resolved", True)]
    ended: AskedInterrupt = bounded(asks.outcome(asked.run_id))
    verdict = ToolVerdict.of(ended.status, ended.resume_value, call)
    assert (verdict.approved, verdict.arguments, ended.decided_by) == (True, EDITED, "alice")
    outbox.send_email(**verdict.arguments)
    assert outbox.sent == [EDITED]
