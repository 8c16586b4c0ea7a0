"""Waiting the MCP way on the local stack, with the official `mcp` SDK's own client (issue 31): alice's
agent asks for her own approval through a client that declares URL-mode elicitation; the answer is an
InputRequiredResult whose page is her own signed link and whose requestState is a waitgate token; she
accepts by the link she was e-mailed; the SDK's client retries with the state and its call completes
with her decision, and the ask's run is completed. The same call again is the same interrupt; a
forged, replayed or another tenant's state is refused with the JSON-RPC error and nothing changed; an
agent that may not decide gets the pending interrupt at once. (An expired state is
tests/integration/test_mcp_waiting.py's: it needs the clock.) And MCP Tasks: an agent's client that
declares the extension gets a task, which completes with the decision alice makes by her e-mailed
link. (The same waits across a restart of the stack are test_mcp_restart_e2e.py's.)"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequestURLParams, ElicitResult, InputRequiredResult

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.test_mcp_e2e import AGENT_SCOPES, approve_by_link, call
from tests.e2e.waiting import wait_for
from tests.support.mcp_tasks_client import PollingTasks

pytestmark = pytest.mark.e2e
ALICE_SCOPES = "interrupts:request runs:read approvals:respond"
INVALID_STATE = (-32602, "Invalid or expired requestState")


def own_ask(title: str) -> dict[str, Any]:
    return {"title": title, "approvers": ["alice"], "request_key": uuid.uuid4().hex}


def run_in_her_inbox(stack: LocalStackHandle, token: str, title: str) -> str | None:
    """The run of the ask titled `title` among what waits for alice (GET /interrupts)."""
    items = stack.http.get("/interrupts?kind=approval", token=token).json()["items"]
    return next((item["runId"] for item in items if item.get("title") == title), None)


async def with_client(
    stack: LocalStackHandle, token: str, use: Any, on_page: Any = None, extensions: Any = None
) -> Any:
    """`use(client)` on an SDK client over Streamable HTTP; with `on_page`, one that can open a page
    for its user (an elicitation callback: the SDK declares URL-mode elicitation for it); with
    `extensions`, one that declares them (MCP Tasks)."""
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
        Client(
            streamable_http_client(stack.api_url + "/mcp", http_client=http),
            elicitation_callback=on_page,
            extensions=extensions,
        ) as client,
    ):
        return await use(client)


async def _with_page_client(stack: LocalStackHandle, token: str, use: Any, on_page: Any) -> Any:
    return await with_client(stack, token, use, on_page)


async def _no_page(context: Any, params: Any) -> ElicitResult:
    raise AssertionError("this round is driven by hand")


def first_round(stack: LocalStackHandle, token: str, ask: dict[str, Any]) -> InputRequiredResult:
    """The ask's first round as it came, the round driven by hand with the SDK's session."""

    async def asking(client: Client) -> InputRequiredResult:
        answered = await client.session.call_tool("request_approval", ask, allow_input_required=True)
        assert isinstance(answered, InputRequiredResult), answered
        return answered

    answered: InputRequiredResult = asyncio.run(_with_page_client(stack, token, asking, _no_page))
    assert answered.request_state is not None and answered.input_requests is not None
    page = answered.input_requests["decision"].params
    assert isinstance(page, ElicitRequestURLParams)
    assert page.url.startswith(stack.api_url + "/interrupts/")
    return answered


def retry(stack: LocalStackHandle, token: str, ask: dict[str, Any], state: str) -> dict[str, Any] | MCPError:
    """The client's retry with the round's state: the tool's structured answer, or the refusal."""

    async def retrying(client: Client) -> dict[str, Any] | MCPError:
        try:
            result = await client.session.call_tool(
                "request_approval",
                ask,
                input_responses={"decision": ElicitResult(action="accept")},
                request_state=state,
            )
        except MCPError as error:
            return error
        return dict(result.structured_content or {})

    answer: dict[str, Any] | MCPError = asyncio.run(_with_page_client(stack, token, retrying, _no_page))
    return answer


def refusal_of(answer: dict[str, Any] | MCPError) -> tuple[int, str]:
    assert isinstance(answer, MCPError), answer
    return answer.code, answer.message


def test_alice_decides_by_her_emailed_link_while_her_client_waits_and_its_call_ends_with_her_decision(
    local_stack: LocalStackHandle,
) -> None:
    alice = local_stack.jwt("alice", ALICE_SCOPES, tenant="acme")
    ask = own_ask(f"Deploy my branch {uuid.uuid4().hex[:8]}?")
    offered: list[str] = []

    async def on_page(context: Any, params: Any) -> ElicitResult:
        # Her client shows her the page; she decides by the link she was e-mailed instead
        assert isinstance(params, ElicitRequestURLParams)
        offered.append(params.url)
        run_id = wait_for(lambda: run_in_her_inbox(local_stack, alice, ask["title"]), what="her ask")
        approve_by_link(local_stack, run_id)
        return ElicitResult(action="accept")

    async def asking(client: Client) -> dict[str, Any]:
        result = await client.call_tool("request_approval", ask)
        assert not result.is_error, result.content
        return dict(result.structured_content or {})

    # When alice's agent asks for her own approval through the SDK's client
    decided = asyncio.run(_with_page_client(local_stack, alice, asking, on_page))
    # Then the client was offered her page, and its call completed with her decision
    assert len(offered) == 1 and offered[0].startswith(local_stack.api_url + "/interrupts/")
    assert (decided["status"], decided["decidedBy"], decided["resumeValue"]["action"]) == (
        "resolved",
        "alice",
        "accept",
    )
    # And the ask's run ended with it; the same call again is that interrupt
    assert decided["runStatus"] == "completed"
    reader = local_stack.jwt("auditor", "runs:read", tenant="acme")
    assert local_stack.http.get(f"/runs/{decided['runId']}", token=reader).json()["status"] == "completed"
    assert call(local_stack, alice, "request_approval", ask)["interruptId"] == decided["interruptId"]
    # And the page's token is in nothing the stack logged
    assert offered[0].rsplit("/", 1)[-1] not in "".join(local_stack.output)


def test_a_forged_or_another_tenants_state_is_refused_and_an_agent_that_may_not_decide_waits_as_before(
    local_stack: LocalStackHandle,
) -> None:
    alice = local_stack.jwt("alice", ALICE_SCOPES, tenant="acme")
    ask = own_ask("Rotate my keys?")
    state = first_round(local_stack, alice, ask).request_state
    assert state is not None
    reader = local_stack.jwt("auditor", "runs:read", tenant="acme")
    run_id = wait_for(lambda: run_in_her_inbox(local_stack, alice, ask["title"]), what="her ask")
    before = local_stack.http.get(f"/runs/{run_id}/events", token=reader).json()["events"]
    # forged: one character changed; another tenant's alice, with the same scopes
    forged = state[:-1] + ("A" if state[-1] != "A" else "B")
    assert refusal_of(retry(local_stack, alice, ask, forged)) == INVALID_STATE
    stranger = local_stack.jwt("alice", ALICE_SCOPES, tenant="globex")
    assert refusal_of(retry(local_stack, stranger, ask, state)) == INVALID_STATE
    # Then nothing changed: the same events, still pending
    assert local_stack.http.get(f"/runs/{run_id}/events", token=reader).json()["events"] == before
    # An agent that is not an approver, with a client that could open a page: the pending interrupt
    agent = local_stack.jwt("agent-7", AGENT_SCOPES, tenant="acme")

    async def asking(client: Client) -> dict[str, Any]:
        result = await client.call_tool("request_approval", own_ask("Ship it?"))
        return dict(result.structured_content or {})

    assert asyncio.run(_with_page_client(local_stack, agent, asking, _no_page))["status"] == "pending"


def test_an_agents_task_completes_with_the_decision_alice_makes_by_her_emailed_link(
    local_stack: LocalStackHandle,
) -> None:
    agent = local_stack.jwt("agent-7", AGENT_SCOPES, tenant="acme")
    alice = local_stack.jwt("alice", "approvals:respond", tenant="acme")
    ask = own_ask(f"Ship release {uuid.uuid4().hex[:8]}?")

    async def alice_decides(task_id: str) -> None:
        approve_by_link(local_stack, task_id)  # the task is the ask's run

    tasks = PollingTasks(alice_decides)

    async def asking(client: Client) -> dict[str, Any]:
        result = await client.call_tool("request_approval", ask)
        assert not result.is_error, result.content
        return dict(result.structured_content or {})

    # When an agent whose client declares MCP Tasks asks for alice's approval
    decided = asyncio.run(with_client(local_stack, agent, asking, extensions=[tasks]))
    # Then its call became a task, working until alice decided, completed with her decision
    assert [task["status"] for task in tasks.polled] == ["working", "completed"]
    assert (tasks.created[0].task_id, decided["status"], decided["decidedBy"]) == (
        decided["runId"],
        "resolved",
        "alice",
    )
    assert run_in_her_inbox(local_stack, alice, ask["title"]) is None
