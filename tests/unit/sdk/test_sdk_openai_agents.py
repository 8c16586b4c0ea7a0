"""waitgate.sdk.openai_agents with a real openai-agents Agent on a scripted Model (the SDK's own
interface, tracing off, no network): its interruptions read as waitgate tool calls, the RunState is
kept as JSON and restored with the verdicts applied; the edited arguments run once, a rejection
reaches the model with the reviewer's comment."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.support.scripted_agents import FIRST_ARGUMENTS, Outbox, openai_agent
from waitgate.sdk.openai_agents import PendingApprovals, restored_state, stopped_run
from waitgate.sdk.tool_approvals import MappingRefused, ToolVerdict

pytest.importorskip("agents")
EDITED = {"to": "carol@example.com", "subject": "Quarterly report (final)"}


def run_through(verdict: ToolVerdict) -> tuple[Outbox, Any]:
    from agents import Runner

    async def scenario() -> Any:
        outbox = Outbox()
        agent = openai_agent(outbox)
        first = await Runner.run(agent, "Mail the report to bob.")
        kept = stopped_run(first).to_json()  # what the agent keeps while a person decides
        assert outbox.sent == []
        pending = PendingApprovals.from_json(kept)
        assert [(c.name, dict(c.arguments), c.call_id) for c in pending.calls] == [
            ("send_email", FIRST_ARGUMENTS, "call-1")
        ]
        state = await restored_state(pending, [verdict], openai_agent(outbox))
        return outbox, await Runner.run(openai_agent(outbox), state)

    return asyncio.run(scenario())


def test_an_edit_accept_runs_the_tool_once_with_the_edited_arguments() -> None:
    outbox, result = run_through(ToolVerdict(True, EDITED, edited=True))
    assert outbox.sent == [EDITED]
    assert result.final_output == "done"


def test_an_accept_runs_the_call_as_the_model_made_it() -> None:
    outbox, _ = run_through(ToolVerdict(True, dict(FIRST_ARGUMENTS)))
    assert outbox.sent == [FIRST_ARGUMENTS]


def test_a_rejection_reaches_the_model_with_the_reviewers_comment_and_the_tool_never_runs() -> None:
    outbox, result = run_through(ToolVerdict(False, message="Not to bob."))
    assert outbox.sent == []
    outputs = [item.raw_item for item in result.new_items if item.type == "tool_call_output_item"]
    assert any("Not to bob." in str(output) for output in outputs)


def test_a_run_state_above_the_bound_is_refused_by_name() -> None:
    from agents import Runner

    async def first() -> Any:
        return await Runner.run(openai_agent(Outbox()), "Mail the report to bob.")

    with pytest.raises(MappingRefused) as refused:
        stopped_run(asyncio.run(first()), max_state_bytes=100)
    assert refused.value.field == "RunState"
