"""waitgate.sdk.langgraph with a real LangChain agent (create_agent + HumanInTheLoopMiddleware, a
scripted chat model, InMemorySaver): its interrupts read as waitgate reviews, a person's verdict
resumes the graph (the edited arguments run once; a rejection's comment reaches the model), and every
shape reads and writes back equal, refusing by name what waitgate cannot carry."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.scripted_agents import FIRST_ARGUMENTS, Outbox, langgraph_agent
from waitgate.sdk.langgraph import PendingReview, interrupts_of, read_interrupt
from waitgate.sdk.langgraph_shapes import (
    ToolReview,
    hitl_decision,
    read_hitl_decision,
    read_hitl_request,
    read_human_interrupt,
    read_tool_approval_request,
    write_hitl_request,
    write_human_interrupt,
    write_tool_approval_request,
)
from waitgate.sdk.tool_approvals import MappingRefused, ToolCall, ToolVerdict

pytest.importorskip("langgraph")
EDITED = {"to": "carol@example.com", "subject": "Quarterly report (final)"}
ASK = {"messages": [{"role": "user", "content": "Mail the report to bob."}]}


def stopped(mode: str) -> tuple[Any, dict[str, Any], Outbox, list[Any]]:
    outbox = Outbox()
    agent = langgraph_agent(outbox, interrupt_mode=mode)
    config = {"configurable": {"thread_id": f"thread-{mode}"}}
    result = agent.invoke(ASK, config, version="v2")
    return agent, config, outbox, interrupts_of(result)


def resumed(agent: Any, config: dict[str, Any], interrupt: Any, verdict: ToolVerdict) -> Any:
    from langgraph.types import Command

    shape, reviews = read_interrupt(interrupt)
    pending = PendingReview(str(interrupt.id), shape, tuple(reviews), ())
    return agent.invoke(Command(resume={interrupt.id: pending.resume_value([verdict])}), config, version="v2")


@pytest.mark.parametrize("mode", ["batched", "per_call"])
def test_an_edit_accept_resumes_the_graph_and_the_tool_runs_once_with_the_edited_arguments(mode: str) -> None:
    agent, config, outbox, interrupts = stopped(mode)
    assert len(interrupts) == 1 and outbox.sent == []
    shape, reviews = read_interrupt(interrupts[0])
    assert shape == ("hitl" if mode == "batched" else "tool_approval")
    assert [(r.call.name, dict(r.call.arguments)) for r in reviews] == [("send_email", FIRST_ARGUMENTS)]
    assert reviews[0].actions == ("accept", "edit-accept", "reject")
    result = resumed(agent, config, interrupts[0], ToolVerdict(True, EDITED, edited=True))
    assert outbox.sent == [EDITED]
    assert result.value["messages"][-1].content == "done"


@pytest.mark.parametrize("mode", ["batched", "per_call"])
def test_a_rejection_resumes_with_the_reviewers_comment_and_the_tool_never_runs(mode: str) -> None:
    agent, config, outbox, interrupts = stopped(mode)
    result = resumed(agent, config, interrupts[0], ToolVerdict(False, message="Not to bob."))
    assert outbox.sent == []
    tool_messages = [m for m in result.value["messages"] if m.type == "tool"]
    assert "Not to bob." in tool_messages[0].content


def test_each_verdict_is_the_hitl_decision_it_reads_back_as() -> None:
    review = ToolReview(
        ToolCall("send_email", FIRST_ARGUMENTS, "c1"), ("approve", "edit", "reject", "respond")
    )
    verdicts = [
        ToolVerdict(True, dict(FIRST_ARGUMENTS)),
        ToolVerdict(True, EDITED, edited=True),
        ToolVerdict(False, message="no"),
        ToolVerdict(False),
        ToolVerdict(False, answer="Sent already."),
    ]
    for verdict in verdicts:
        decision = hitl_decision(review, verdict)
        assert hitl_decision(review, read_hitl_decision(decision, review)) == decision


def test_a_decision_the_call_does_not_allow_is_refused_by_name() -> None:
    review = ToolReview(ToolCall("delete_file", {"path": "/r"}, "c1"), ("approve", "reject"))
    with pytest.raises(MappingRefused) as refused:
        hitl_decision(review, ToolVerdict(True, {"path": "/s"}, edited=True))
    assert refused.value.field == "type"


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20))
arguments = st.dictionaries(st.text(min_size=1, max_size=10), json_scalars, max_size=4)
decisions = st.lists(
    st.sampled_from(["approve", "edit", "reject", "respond"]), min_size=1, max_size=4, unique=True
)
actions = st.fixed_dictionaries(
    {"name": st.text(min_size=1, max_size=20), "args": arguments},
    optional={"description": st.text(max_size=40)},
)


@given(st.lists(st.tuples(actions, decisions), min_size=1, max_size=3))
def test_a_hitl_request_reads_and_writes_back_equal(requests: list[tuple[dict[str, Any], list[str]]]) -> None:
    request = {
        "action_requests": [action for action, _ in requests],
        "review_configs": [{"action_name": a["name"], "allowed_decisions": d} for a, d in requests],
    }
    reviews = read_hitl_request(request, call_ids=[str(i) for i in range(len(requests))])
    assert write_hitl_request(reviews) == request


@given(actions, decisions)
def test_a_tool_approval_request_and_a_human_interrupt_read_and_write_back_equal(
    action: dict[str, Any], allowed: list[str]
) -> None:
    request = {"type": "tool_approval", "tool_call_id": "c1", "name": action["name"], "args": action["args"]}
    request["description"] = action.get("description", "")
    assert write_tool_approval_request(read_tool_approval_request(request, allowed=allowed)) == request
    flags = {"allow_accept": "approve" in allowed, "allow_edit": "edit" in allowed}
    flags |= {"allow_ignore": "reject" in allowed, "allow_respond": "respond" in allowed}
    inbox = {
        "action_request": {"action": action["name"], "args": action["args"]},
        "config": flags,
        "description": action.get("description"),
    }
    if any(flags.values()):
        assert write_human_interrupt(read_human_interrupt(inbox, call_id="c1")) == inbox


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (
            {
                "action_requests": [{"name": "t", "args": {}}],
                "review_configs": [{"action_name": "t", "allowed_decisions": ["approve"], "args_schema": {}}],
            },
            "review_configs[0].args_schema",
        ),
        (
            {
                "action_requests": [{"name": "t", "args": {}, "icon": "x"}],
                "review_configs": [{"action_name": "t", "allowed_decisions": ["approve"]}],
            },
            "action_requests[0].icon",
        ),
        (
            {
                "action_requests": [{"name": "t", "args": {}}],
                "review_configs": [{"action_name": "t", "allowed_decisions": ["ignore"]}],
            },
            "review_configs[0].allowed_decisions[0]",
        ),
        (
            {
                "action_requests": [{"name": "t", "args": "[1]"}],
                "review_configs": [{"action_name": "t", "allowed_decisions": ["approve"]}],
            },
            "action_requests[0].args",
        ),
    ],
)
def test_what_waitgate_cannot_carry_is_refused_by_name(request_: dict[str, Any], field: str) -> None:
    with pytest.raises(MappingRefused) as refused:
        read_hitl_request(request_, call_ids=["0"])
    assert refused.value.field == field


def test_an_agent_inbox_graph_resumes_with_the_human_response_of_an_edit() -> None:
    """A StateGraph node that asks with Agent Inbox's HumanInterrupt list, as its docs show."""
    from typing import TypedDict

    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import Command, interrupt

    class State(TypedDict, total=False):
        ran_with: Any

    def review(state: State) -> State:
        request = {
            "action_request": {"action": "send_email", "args": dict(FIRST_ARGUMENTS)},
            "config": {
                "allow_ignore": True,
                "allow_respond": False,
                "allow_edit": True,
                "allow_accept": True,
            },
            "description": "Mail the report?",
        }
        response = interrupt([request])[0]
        return {"ran_with": response["args"]["args"] if response["type"] == "edit" else response["type"]}

    builder = StateGraph(State)
    builder.add_node("review", review)
    builder.add_edge(START, "review")
    builder.add_edge("review", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "inbox-1"}}
    [stopped] = interrupts_of(graph.invoke({}, config, version="v2"))
    shape, reviews = read_interrupt(stopped)
    assert (shape, reviews[0].actions, reviews[0].call.description) == (
        "human_interrupt",
        ("accept", "edit-accept", "reject"),
        "Mail the report?",
    )
    pending = PendingReview(str(stopped.id), shape, tuple(reviews), ())
    resume = pending.resume_value([ToolVerdict(True, EDITED, edited=True)])
    result = graph.invoke(Command(resume={stopped.id: resume}), config, version="v2")
    assert result.value == {"ran_with": EDITED}
