"""An agent's asks over MCP (service.agent_interrupts), on the in-memory host: each ask is one
interrupt of its kind in the caller's tenant, a retried ask is that same interrupt, a refused ask
writes nothing, and another tenant's caller finds nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.service.world import ACCEPT, World
from waitgate.errors import ForbiddenError, InterruptPayloadInvalidError, NotFoundError
from waitgate.run.agent_asks import AGENT_NODE, AgentAsk
from waitgate.run.identity import Caller
from waitgate.run.records import RunRef
from waitgate.run.resume_handles import handle_kind
from waitgate.service.agent_interrupts import AgentDependencies, ask, read_ask

AGENT = Caller("agent-7", "acme", "jwt", frozenset({"interrupts:request", "runs:read"}))
INBOX = "https://api.example.com/inbox"
SHIP: dict[str, Any] = {
    "artifactId": "r42",
    "artifactType": "release",
    "title": "Ship release 42?",
    "actions": ["accept", "reject"],
    "approversList": ["alice"],
}


def approval(request_key: str = "k1", **data: Any) -> AgentAsk:
    return AgentAsk("request_approval", {**SHIP, **data}, {}, request_key)


def agent_world() -> tuple[World, AgentDependencies]:
    world = World()
    return world, AgentDependencies(world.requesting(), INBOX)


def test_an_ask_is_an_interrupt_of_its_kind_in_the_callers_tenant_that_no_engine_waits_on() -> None:
    world, deps = agent_world()
    # When the agent asks for an approval
    view = ask(approval(), AGENT, deps)
    # Then one approval waits in a run of the agent's tenant, on an agent-poll handle
    record = world.interrupt(AGENT_NODE, RunRef("acme", view["runId"]))
    assert (record.kind, record.status, record.data["approversList"]) == ("approval", "pending", ["alice"])
    assert handle_kind(record.task_token) == "agent-poll"
    assert view == {
        "interruptId": record.interrupt_id,
        "runId": view["runId"],
        "nodeId": AGENT_NODE,
        "kind": "approval",
        "status": "pending",
        "requestedAt": record.requested_at,
        "inboxUrl": INBOX,
        "runStatus": "waiting-approval",
    }
    assert view["runId"].startswith("mcp-")


def test_the_same_ask_retried_is_the_same_interrupt_and_writes_nothing() -> None:
    world, deps = agent_world()
    first = ask(approval(), AGENT, deps)
    run = RunRef("acme", first["runId"])
    events = world.types(run)
    # When the same call comes again (a retry)
    again = ask(approval(), AGENT, deps)
    # Then it is the same interrupt, and the run's log did not grow
    assert again == first
    assert world.types(run) == events
    assert len(world.store.interrupts) == 1


def test_another_request_key_another_principal_or_other_arguments_ask_again() -> None:
    world, deps = agent_world()
    first = ask(approval(), AGENT, deps)
    other_key = ask(approval("k2"), AGENT, deps)
    other_agent = ask(approval(), Caller("agent-8", "acme", "jwt", AGENT.scopes), deps)
    other_title = ask(approval(title="Ship release 43?"), AGENT, deps)
    ids = {view["interruptId"] for view in (first, other_key, other_agent, other_title)}
    assert len(ids) == 4 and len(world.store.interrupts) == 4


def test_a_resolved_ask_reads_as_its_decision_and_asking_again_gives_it_back() -> None:
    world, deps = agent_world()
    view = ask(approval(), AGENT, deps)
    run = RunRef("acme", view["runId"])
    alice = Caller("alice", "acme", "jwt", frozenset({"approvals:respond"}))
    world.resolve(ACCEPT, node=AGENT_NODE, run=run, caller=alice)
    # Then get_interrupt shows her decision
    read = read_ask(view["runId"], AGENT, deps)
    assert (read["status"], read["decidedBy"], read["resumeValue"]["action"]) == (
        "resolved",
        "alice",
        "accept",
    )
    # And its run ended with it (no execution will): completed, as a workflow's run ends
    assert read["runStatus"] == "completed"
    assert world.types(run)[-1] == "run.status_changed"
    # And the same ask, retried after she decided, is that resolved interrupt, not a new one
    assert ask(approval(), AGENT, deps) == read
    assert len(world.store.interrupts) == 1


def test_a_refused_ask_says_why_and_writes_nothing() -> None:
    world, deps = agent_world()
    with pytest.raises(InterruptPayloadInvalidError, match=r"data\.actions\[0\]"):
        ask(approval(actions=["explode"]), AGENT, deps)
    # a deadline past the host's limit: request_interrupt's own refusal, reaching the agent as the error
    with pytest.raises(InterruptPayloadInvalidError, match="timeoutMs may be at most"):
        ask(AgentAsk("request_approval", SHIP, {"timeoutMs": 10**12}), AGENT, deps)
    assert not world.store.interrupts


def test_another_tenants_caller_finds_nothing_and_a_caller_without_the_scope_asks_nothing() -> None:
    world, deps = agent_world()
    view = ask(approval(), AGENT, deps)
    stranger = Caller("agent-7", "globex", "jwt", AGENT.scopes)
    with pytest.raises(NotFoundError):
        read_ask(view["runId"], stranger, deps)
    reader = Caller("agent-9", "acme", "jwt", frozenset({"runs:read"}))
    with pytest.raises(ForbiddenError):
        ask(approval("k9"), reader, deps)
    assert len(world.store.interrupts) == 1


def test_an_approval_asked_through_mcp_is_the_agents_request_so_the_person_may_decide_it() -> None:
    from waitgate.service.resolve_interrupt import ResolveCommand, resolve_interrupt

    world, deps = agent_world()
    alice = Caller(
        "alice", "acme", "jwt", frozenset({"interrupts:request", "runs:read", "approvals:respond"})
    )
    # When alice's agent, holding her token, asks for an approval she is listed on
    view = ask(approval(approversList=["alice"]), alice, deps)
    run = RunRef("acme", view["runId"])
    # Then its requester is the agent, in the namespace no person may have, not alice
    assert world.interrupt(AGENT_NODE, run).data["requestedBy"] == "agent:alice"
    # And alice decides it (issue #31: her own agent asked her)
    command = ResolveCommand(run=run, node_id=AGENT_NODE, resume_value=ACCEPT, caller=alice)
    assert resolve_interrupt(command, world.resolving()).status == "resolved"


def test_nobody_signs_in_as_an_agents_requester() -> None:
    from waitgate.run.identity import refuse_own_namespace

    with pytest.raises(ForbiddenError):
        refuse_own_namespace("agent:alice", bearer=True)
