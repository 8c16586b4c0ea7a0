"""A tool call's approval and its verdict (waitgate.sdk.tool_approvals), shared by every framework:
the approval shows the tool and its arguments and offers accept, edit-accept and reject; a decision
reads as the verdict it is; no decision (expired, cancelled) never runs the tool; what is not a tool
call's decision or arguments is refused by name."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.sdk.agent_asks import AskedInterrupt
from waitgate.sdk.tool_approvals import (
    NO_DECISION,
    MappingRefused,
    ToolCall,
    ToolVerdict,
    json_arguments,
    re_entry_key,
)

CALL = ToolCall("send_email", {"to": "bob"}, "call-1")
AT = "2026-12-03T10:00:00Z"


def test_the_approval_names_the_tool_and_shows_its_arguments() -> None:
    asked = CALL.approval(request_key="k", approvers=["alice"], timeout_seconds=60)
    assert asked == {
        "title": "Run send_email?",
        "description": "The agent asks to call the tool send_email.",
        "artifact_id": "call-1",
        "artifact_type": "tool-call",
        "artifact": {"to": "bob"},
        "actions": ["accept", "edit-accept", "reject"],
        "approvers": ["alice"],
        "timeout_seconds": 60,
        "request_key": "k",
    }


@pytest.mark.parametrize(
    ("resume_value", "verdict"),
    [
        (
            {"action": "accept", "decidedAt": AT, "decidedBy": "alice"},
            ToolVerdict(True, {"to": "bob"}, decided_by="alice"),
        ),
        (
            {"action": "edit-accept", "decidedAt": AT, "editedArtifactData": {"to": "carol"}},
            ToolVerdict(True, {"to": "carol"}, edited=True),
        ),
        ({"action": "reject", "decidedAt": AT, "feedback": "no"}, ToolVerdict(False, message="no")),
        (
            {"answers": {"answer": "sent already"}, "decidedBy": "alice"},
            ToolVerdict(False, decided_by="alice", answer="sent already"),
        ),
    ],
)
def test_a_decision_reads_as_its_verdict(resume_value: dict[str, Any], verdict: ToolVerdict) -> None:
    assert ToolVerdict.of("resolved", resume_value, CALL) == verdict


@pytest.mark.parametrize("status", ["expired", "cancelled"])
def test_no_decision_never_runs_the_tool(status: str) -> None:
    assert ToolVerdict.of(status, None, CALL) == ToolVerdict(False, message=NO_DECISION)


@pytest.mark.parametrize(
    ("resume_value", "field"),
    [
        ({"action": "refine", "decidedAt": AT}, "resumeValue.action"),
        (
            {"action": "edit-accept", "decidedAt": AT, "editedArtifactData": [1]},
            "resumeValue.editedArtifactData",
        ),
    ],
)
def test_what_is_no_decision_on_a_tool_call_is_refused_by_name(
    resume_value: dict[str, Any], field: str
) -> None:
    with pytest.raises(MappingRefused) as refused:
        ToolVerdict.of("resolved", resume_value, CALL)
    assert refused.value.field == field


@pytest.mark.parametrize("arguments", ["not json", "[1, 2]", 7, {"when": object()}])
def test_arguments_that_are_no_json_object_are_refused_by_name(arguments: Any) -> None:
    with pytest.raises(MappingRefused) as refused:
        json_arguments(arguments, "args")
    assert refused.value.field == "args"


@given(
    st.lists(st.text(max_size=20), min_size=1, max_size=4),
    st.lists(st.text(max_size=20), min_size=1, max_size=4),
)
def test_the_re_entry_key_is_the_same_for_the_same_parts_only(first: list[str], second: list[str]) -> None:
    assert re_entry_key(*first) == re_entry_key(*first)
    assert (re_entry_key(*first) == re_entry_key(*second)) == (first == second)


def test_an_asked_interrupt_reads_get_interrupts_view() -> None:
    view = {
        "interruptId": "i-1",
        "runId": "mcp-1",
        "nodeId": "Interrupt",
        "kind": "approval",
        "status": "resolved",
        "requestedAt": AT,
        "inboxUrl": "http://x/inbox",
        "resumeValue": {"action": "accept"},
        "decidedBy": "alice",
    }
    asked = AskedInterrupt.of(view)
    assert (asked.run_id, asked.ended, asked.decided_by, asked.inbox_url) == (
        "mcp-1",
        True,
        "alice",
        "http://x/inbox",
    )
