"""MCP waits across a restart of the local stack (stopped as Ctrl-C does, started again on its state
directory and ports), each driven by the official `mcp` SDK's own client: an agent's question still
waits after it and resolves; alice's round (its page and requestState in her client) completes with
the decision she makes by her e-mailed link after it, its state good once; an MCP task working when it
restarted completes with her decision. The three share one restart of one stack (`asked_across_restart`):
each start costs the CPU of a few hundred AWS calls, and their runs are apart."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from mcp import Client

from tests.e2e.conftest import OWN_STACKS, LocalStackHandle, running_stack
from tests.e2e.test_mcp_e2e import AGENT_SCOPES, approve_by_link, call
from tests.e2e.test_mcp_rounds_e2e import (
    ALICE_SCOPES,
    INVALID_STATE,
    first_round,
    own_ask,
    refusal_of,
    retry,
    run_in_her_inbox,
    with_client,
)
from tests.e2e.waiting import wait_for
from tests.support.mcp_tasks_client import CreatedTask, PollingTasks, get_task

pytestmark = [pytest.mark.e2e, OWN_STACKS]


def create_task(stack: LocalStackHandle, token: str, ask: dict[str, Any]) -> str:
    """The ask made by a client that declares MCP Tasks: the task's id."""

    async def creating(client: Client) -> str:
        created = await client.session.call_tool("request_approval", ask, allow_claimed=True)
        assert isinstance(created, CreatedTask), created
        return created.task_id

    task_id: str = asyncio.run(with_client(stack, token, creating, extensions=[PollingTasks()]))
    return task_id


def polled_task(stack: LocalStackHandle, token: str, task_id: str) -> dict[str, Any]:
    """tasks/get of the task, by a client that declares MCP Tasks."""

    async def get(client: Client) -> dict[str, Any]:
        return await get_task(client.session, task_id)

    task: dict[str, Any] = asyncio.run(with_client(stack, token, get, extensions=[PollingTasks()]))
    return task


@dataclass
class AskedAcrossRestart:
    """One stack restarted while three MCP asks waited, each set up before the restart as a client
    makes it."""

    stack: LocalStackHandle
    agent: str
    alice: str
    question_run_id: str  # agent-7's ask_question, waiting
    round_ask: dict[str, Any]  # alice's own ask, its first round's state in her client
    round_state: str
    round_run_id: str
    task_id: str  # agent-7's request_approval as an MCP task, working


@pytest.fixture(scope="session")  # once per worker, whatever order its tests come in
def asked_across_restart(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AskedAcrossRestart]:
    with running_stack(tmp_path_factory.mktemp("mcp-restarted")) as stack:
        agent, alice = stack.jwt("agent-7", AGENT_SCOPES), stack.jwt("alice", ALICE_SCOPES)
        question = call(
            stack, agent, "ask_question", {"questions": [{"id": "region", "question": "Which region?"}]}
        )
        wait_for(lambda: stack.http.get("/interrupts", token=stack.jwt("alice", "runs:read")).status == 200)
        round_ask = own_ask("Merge my fix?")
        round_state = first_round(stack, alice, round_ask).request_state
        assert round_state is not None
        round_run_id = wait_for(lambda: run_in_her_inbox(stack, alice, round_ask["title"]), what="her ask")
        task_id = create_task(stack, agent, own_ask("Rotate the certificates?"))
        stack.restart()
        yield AskedAcrossRestart(
            stack, agent, alice, question["runId"], round_ask, round_state, round_run_id, task_id
        )


def test_an_ask_waits_across_a_restart_and_resolves_after_it(
    asked_across_restart: AskedAcrossRestart,
) -> None:
    # Given agent-7's question, asked before the stack restarted
    stack, agent, run_id = (
        asked_across_restart.stack,
        asked_across_restart.agent,
        asked_across_restart.question_run_id,
    )
    # Then after the restart it still waits, and alice's answer resolves it
    assert call(stack, agent, "get_interrupt", {"run_id": run_id})["status"] == "pending"
    answerer = stack.jwt("alice", "approvals:respond")
    answer = stack.http.post(
        f"/runs/{run_id}/interrupts/Interrupt",
        {"resumeValue": {"answers": {"region": "eu-west-1"}}},
        token=answerer,
    )
    assert answer.status == 200, answer.body
    read = call(stack, agent, "get_interrupt", {"run_id": run_id})
    assert (read["status"], read["resumeValue"]) == ("resolved", {"answers": {"region": "eu-west-1"}})


def test_the_round_survives_a_restart_while_alice_decides_and_its_state_is_good_once(
    asked_across_restart: AskedAcrossRestart,
) -> None:
    # Given the first round's page and state in alice's client, from before the restart
    asked = asked_across_restart
    stack, alice, ask, state, run_id = (
        asked.stack,
        asked.alice,
        asked.round_ask,
        asked.round_state,
        asked.round_run_id,
    )
    # When the stack restarted while she decides, and she accepts by her e-mailed link
    approve_by_link(stack, run_id)
    # Then the client's retry, to the restarted stack, completes with her decision
    decided = retry(stack, alice, ask, state)
    assert isinstance(decided, dict), decided
    assert (decided["runId"], decided["status"], decided["decidedBy"]) == (run_id, "resolved", "alice")
    assert decided["runStatus"] == "completed"
    # And the same state again is refused (replayed), the decision unchanged
    assert refusal_of(retry(stack, alice, ask, state)) == INVALID_STATE
    assert call(stack, alice, "get_interrupt", {"run_id": run_id})["status"] == "resolved"


def test_a_task_survives_a_restart_of_the_stack_its_state_being_the_interrupt(
    asked_across_restart: AskedAcrossRestart,
) -> None:
    # Given a task working when the stack restarted
    stack, agent, task_id = (
        asked_across_restart.stack,
        asked_across_restart.agent,
        asked_across_restart.task_id,
    )
    # When, after the restart, alice accepts by her link
    assert polled_task(stack, agent, task_id)["status"] == "working"
    approve_by_link(stack, task_id)
    # Then tasks/get on the restarted stack reports it completed with her decision
    task = polled_task(stack, agent, task_id)
    assert task["status"] == "completed"
    assert task["result"]["structuredContent"]["decidedBy"] == "alice"
