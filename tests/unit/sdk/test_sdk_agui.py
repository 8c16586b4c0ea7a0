"""waitgate.sdk.agui with the ag-ui-protocol package's own types: a waitgate ask as an AG-UI 1.0
Interrupt in RUN_FINISHED's interrupt outcome (reasons tool_call, confirmation, input_required with its
responseSchema; expiresAt the deadline), read back as the ask it was; resume[] entries from ended
interrupts; what waitgate cannot carry refused by name."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.sdk.agent_asks import AskedInterrupt
from waitgate.sdk.agui import interrupt_of, read_interrupt, resume_entry, run_finished
from waitgate.sdk.tool_approvals import MappingRefused, ToolCall, re_entry_key

pytest.importorskip("ag_ui")
DEADLINE = "2026-12-04T10:00:00Z"


def asked(kind: str = "approval", status: str = "pending", resume_value: Any = None) -> AskedInterrupt:
    return AskedInterrupt("mcp-abc", "Interrupt", "int-1", kind, status, resume_value, deadline=DEADLINE)


def test_a_tool_call_approval_is_an_interrupt_outcome_with_the_deadline_as_expires_at() -> None:
    call = ToolCall("send_email", {"to": "bob"}, "call-1")
    event = run_finished("thread-1", "run-1", [interrupt_of(asked(), message="Run send_email?", call=call)])
    document = event.model_dump(mode="json", by_alias=True)
    assert document["type"] == "RUN_FINISHED"
    [interrupt] = document["outcome"]["interrupts"]
    assert (interrupt["reason"], interrupt["toolCallId"], interrupt["expiresAt"]) == (
        "tool_call",
        "call-1",
        DEADLINE,
    )
    assert interrupt["responseSchema"]["properties"]["action"]["enum"] == ["accept", "edit-accept", "reject"]
    assert interrupt["metadata"] == {"waitgate": {"runId": "mcp-abc", "nodeId": "Interrupt"}}
    read = read_interrupt(interrupt, call=call)
    assert read == {
        "tool": "request_approval",
        "arguments": call.approval(request_key=re_entry_key("ag-ui", "int-1")),
    }


def test_a_clarification_is_input_required_with_its_answers_schema() -> None:
    questions = [{"id": "answer", "question": "Which region?", "schema": {"enum": ["eu", "us"]}}]
    interrupt = interrupt_of(asked("clarification"), message="Which region?", questions=questions)
    document = interrupt.model_dump(mode="json", by_alias=True)
    assert document["reason"] == "input_required"
    answers = document["responseSchema"]["properties"]["answers"]
    assert answers["properties"] == {"answer": {"enum": ["eu", "us"]}}
    read = read_interrupt(document)
    assert read["tool"] == "ask_question"
    assert read["arguments"]["questions"][0]["question"] == "Which region?"


def test_ended_interrupts_are_resume_entries() -> None:
    decision = {"action": "accept", "decidedAt": "2026-12-03T10:00:00Z"}
    resolved = resume_entry(asked(status="resolved", resume_value=decision)).model_dump(
        mode="json", by_alias=True
    )
    assert resolved == {"interruptId": "int-1", "status": "resolved", "payload": decision}
    expired = resume_entry(asked(status="expired")).model_dump(mode="json", by_alias=True)
    assert expired == {"interruptId": "int-1", "status": "cancelled"}


@pytest.mark.parametrize(
    ("member", "field"),
    [
        ({"subagentRunId": "s-1"}, "interrupt.subagentRunId"),
        ({"metadata": {"trace": 1}}, "interrupt.metadata.trace"),
        ({"reason": "payment"}, "interrupt.reason"),
        ({"reason": "tool_call", "toolCallId": "other"}, "interrupt.toolCallId"),
    ],
)
def test_what_waitgate_cannot_carry_is_refused_by_name(member: dict[str, Any], field: str) -> None:
    interrupt = {"id": "i-1", "reason": "confirmation", "message": "Go?"} | member
    with pytest.raises(MappingRefused) as refused:
        read_interrupt(interrupt, call=ToolCall("t", {}, "call-1"))
    assert refused.value.field == field


@given(st.text(min_size=1, max_size=30), st.text(min_size=1, max_size=60))
def test_a_confirmation_reads_back_as_the_approval_it_asks_for(interrupt_id: str, message: str) -> None:
    read = read_interrupt({"id": interrupt_id, "reason": "confirmation", "message": message})
    assert read["arguments"] == {
        "title": message,
        "actions": ["accept", "reject"],
        "request_key": re_entry_key("ag-ui", interrupt_id),
    }
