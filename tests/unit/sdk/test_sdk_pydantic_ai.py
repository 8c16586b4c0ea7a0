"""waitgate.sdk.pydantic_ai with a real pydantic-ai Agent on a FunctionModel (no network): its
DeferredToolRequests read as waitgate calls and write back equal; the verdicts as DeferredToolResults
resume the run (ToolApproved with the edited override_args runs the tool once with them; ToolDenied
carries the reviewer's comment) and read back as the verdicts they were."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.scripted_agents import FIRST_ARGUMENTS, Outbox, pydantic_ai_agent
from waitgate.sdk.pydantic_ai import read_requests, read_results, write_requests, write_results
from waitgate.sdk.tool_approvals import MappingRefused, ToolVerdict

pytest.importorskip("pydantic_ai")
EDITED = {"to": "carol@example.com", "subject": "Quarterly report (final)"}
ASK = "Mail the report to bob."


def stopped() -> tuple[Any, Outbox, Any]:
    from pydantic_ai import DeferredToolRequests

    outbox = Outbox()
    agent = pydantic_ai_agent(outbox)
    result = agent.run_sync(ASK)
    assert isinstance(result.output, DeferredToolRequests) and outbox.sent == []
    return agent, outbox, result


def resumed(verdict: ToolVerdict) -> tuple[Outbox, Any]:
    agent, outbox, result = stopped()
    calls = read_requests(result.output)
    results = write_results(calls, [verdict])
    return outbox, agent.run_sync(message_history=result.all_messages(), deferred_tool_results=results)


def test_the_deferred_requests_read_as_the_call_and_write_back_equal() -> None:
    _, _, result = stopped()
    calls = read_requests(result.output)
    assert [(c.waits_for, c.call.name, dict(c.call.arguments), c.call.call_id) for c in calls] == [
        ("approval", "send_email", FIRST_ARGUMENTS, "call-1")
    ]
    written = write_requests(calls)
    assert [(p.tool_name, p.args, p.tool_call_id) for p in written.approvals] == [
        (p.tool_name, p.args, p.tool_call_id) for p in result.output.approvals
    ]


def test_an_edit_accept_runs_the_tool_once_with_the_edited_arguments() -> None:
    outbox, result = resumed(ToolVerdict(True, EDITED, edited=True, decided_by="alice"))
    assert outbox.sent == [EDITED]
    assert result.output == "done"


def test_a_denial_carries_the_reviewers_comment_and_the_tool_never_runs() -> None:
    outbox, result = resumed(ToolVerdict(False, message="Not to bob."))
    assert outbox.sent == []
    returns = [p for m in result.all_messages() for p in m.parts if p.part_kind == "tool-return"]
    assert [r.content for r in returns] == ["Not to bob."]


@pytest.mark.parametrize(
    "verdict",
    [
        ToolVerdict(True, dict(FIRST_ARGUMENTS), decided_by="alice"),
        ToolVerdict(True, dict(FIRST_ARGUMENTS), message="fine", decided_by="alice"),
        ToolVerdict(True, EDITED, edited=True, decided_by="alice"),
        ToolVerdict(False, message="Not to bob.", decided_by="alice"),
        ToolVerdict(False),
    ],
)
def test_each_verdict_written_as_results_reads_back_equal(verdict: ToolVerdict) -> None:
    _, _, result = stopped()
    calls = read_requests(result.output)
    assert read_results(calls, write_results(calls, [verdict])) == [verdict]


def test_metadata_and_external_calls_are_refused_by_name() -> None:
    from pydantic_ai import DeferredToolRequests
    from pydantic_ai.messages import ToolCallPart

    part = ToolCallPart("send_email", {}, tool_call_id="c9")
    with pytest.raises(MappingRefused) as refused:
        read_requests(DeferredToolRequests(approvals=[part], metadata={"c9": {"cost": 3}}))
    assert refused.value.field == "metadata.c9"
    with pytest.raises(MappingRefused) as refused:
        read_requests(DeferredToolRequests(calls=[part]))
    assert refused.value.field == "calls[0]"


def test_a_run_resumes_from_outcomes_it_was_told_of_without_polling() -> None:
    """The seam for waitgate's webhooks out: the agent already knows how the ask ended."""
    import asyncio

    from waitgate.sdk.agent_asks import AskedInterrupt, KnownOutcomes
    from waitgate.sdk.pydantic_ai import PendingCalls, results_of

    agent, outbox, result = stopped()
    calls = read_requests(result.output)
    asked = AskedInterrupt("mcp-1", "Interrupt", "i-1", "approval", "pending")
    edit = {"action": "edit-accept", "decidedAt": "2026-12-03T10:00:00Z", "editedArtifactData": EDITED}
    told = KnownOutcomes({"mcp-1": AskedInterrupt("mcp-1", "Interrupt", "i-1", "approval", "resolved", edit)})
    results = asyncio.run(results_of(told, PendingCalls(tuple(calls), (asked,))))
    agent.run_sync(message_history=result.all_messages(), deferred_tool_results=results)
    assert outbox.sent == [EDITED]
    with pytest.raises(ValueError, match="still pending"):
        asyncio.run(results_of(KnownOutcomes({"mcp-1": asked}), PendingCalls(tuple(calls), (asked,))))
