"""waitgate as an MCP server on the local stack, driven by the official `mcp` SDK's own client over
Streamable HTTP (issue 31): an agent asks for alice's approval, alice accepts by her e-mailed link,
get_interrupt shows her decision; the same call retried is the same interrupt; another tenant's
client sees nothing; hostile input is a JSON-RPC error and changes nothing; the 401 points at the
resource metadata; `waitgate mcp` serves the same tools on stdio to the SDK's stdio client; and a
client that is not ours (the MCP Inspector's CLI, the TypeScript SDK) lists and calls the tools. (A
wait across the stack's restart is test_mcp_restart_e2e.py's, beside the other MCP waits that share
its one restart.)"""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.e2e.conftest import REPO_ROOT, LocalStackHandle, run_local
from tests.e2e.inspector_cli import InspectorMissingError, inspect
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e
AGENT_SCOPES = "interrupts:request runs:read"
T = TypeVar("T")


def with_tools(stack: LocalStackHandle, token: str, use: Callable[[Client], Awaitable[T]]) -> T:
    """`use(client)` on an SDK client connected to the stack's `/mcp` with the bearer `token`."""

    async def connected() -> T:
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(stack.api_url + "/mcp", http_client=http)) as client,
        ):
            return await use(client)

    return asyncio.run(connected())


def call(stack: LocalStackHandle, token: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The tool's structured result (the call must succeed)."""

    async def calling(client: Client) -> dict[str, Any]:
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content
        assert isinstance(result.structured_content, dict)
        return result.structured_content

    return with_tools(stack, token, calling)


def refusal(stack: LocalStackHandle, token: str, tool: str, arguments: dict[str, Any]) -> MCPError:
    """The JSON-RPC error the call is answered with."""

    async def refused(client: Client) -> MCPError:
        with pytest.raises(MCPError) as raised:
            await client.call_tool(tool, arguments)
        return raised.value

    return with_tools(stack, token, refused)


def tool_error(stack: LocalStackHandle, token: str, tool: str, arguments: dict[str, Any]) -> str:
    """The text of the tool error (isError) the call is answered with."""

    async def failed(client: Client) -> str:
        result = await client.call_tool(tool, arguments)
        assert result.is_error and result.structured_content is None, result
        return " ".join(getattr(part, "text", "") for part in result.content)

    return with_tools(stack, token, failed)


def alices_link(stack: LocalStackHandle, run_id: str) -> str | None:
    listed = run_local(["dev-inbox", "--recipient", "alice", "--run-id", run_id, "--link"], stack.environment)
    return listed.stdout.strip() or None


def approve_by_link(stack: LocalStackHandle, run_id: str) -> None:
    link = wait_for(lambda: alices_link(stack, run_id), what=f"alice's notice of {run_id}")
    decision = {"action": "accept", "decidedAt": "2026-12-02T17:00:00Z"}
    answer = stack.http.post(link.removeprefix(stack.api_url), {"resumeValue": decision})
    assert (answer.status, answer.json()["status"]) == (200, "resolved"), answer.body


def ship(title: str, key: str) -> dict[str, Any]:
    return {"title": title, "approvers": ["alice"], "artifact": {"release": 42}, "request_key": key}


def test_an_agent_asks_alice_and_reads_her_decision_and_a_retry_is_the_same_interrupt(
    local_stack: LocalStackHandle,
) -> None:
    # Given an agent of tenant acme with a JWT of the stack's issuer, and the tools listed
    agent = local_stack.jwt("agent-7", AGENT_SCOPES, tenant="acme")

    async def listed(client: Client) -> list[Any]:
        return list((await client.list_tools()).tools)

    tools = {tool.name: tool for tool in with_tools(local_stack, agent, listed)}
    assert set(tools) == {
        "request_approval",
        "ask_question",
        "wait_for_event",
        "get_interrupt",
        "list_pending",
    }
    assert tools["request_approval"].output_schema is not None
    assert "title" in tools["request_approval"].input_schema["required"]
    # When it asks for alice's approval
    key = uuid.uuid4().hex
    asked = call(local_stack, agent, "request_approval", ship("Ship release 42?", key))
    # Then the call returns at once, pending, with the interrupt's run and the inbox's address
    assert (asked["kind"], asked["status"], asked["inboxUrl"]) == (
        "approval",
        "pending",
        local_stack.api_url + "/inbox",
    )
    # And the same call retried is the same interrupt
    assert call(local_stack, agent, "request_approval", ship("Ship release 42?", key)) == asked
    # When alice accepts by the link she was e-mailed
    approve_by_link(local_stack, asked["runId"])
    # Then get_interrupt shows her decision, and a retry after it still gives that interrupt
    read = call(local_stack, agent, "get_interrupt", {"run_id": asked["runId"]})
    assert (read["interruptId"], read["status"], read["decidedBy"]) == (
        asked["interruptId"],
        "resolved",
        "alice",
    )
    assert read["resumeValue"]["action"] == "accept"
    assert call(local_stack, agent, "request_approval", ship("Ship release 42?", key)) == read
    # And alice was asked once: one notice, one interrupt.requested in the run's log
    reader = local_stack.jwt("auditor", "runs:read", tenant="acme")
    events = local_stack.http.get(f"/runs/{asked['runId']}/events", token=reader).json()["events"]
    assert [event["type"] for event in events].count("interrupt.requested") == 1
    # And neither the agent's bearer token nor alice's link's token is in anything the stack logged
    logged = "".join(local_stack.output)
    link = alices_link(local_stack, asked["runId"]) or ""
    assert agent not in logged and agent.split(".")[2] not in logged
    assert link.rsplit("/", 1)[-1] not in logged


def test_another_tenants_client_sees_nothing_and_alice_sees_it_in_her_inbox(
    local_stack: LocalStackHandle,
) -> None:
    agent = local_stack.jwt("agent-7", AGENT_SCOPES, tenant="acme")
    asked = call(local_stack, agent, "request_approval", ship("Rotate the keys?", uuid.uuid4().hex))
    # Then alice of acme finds it among what waits for her
    alice = local_stack.jwt("alice", "approvals:respond", tenant="acme")
    pending = call(local_stack, alice, "list_pending", {"kind": "approval"})
    assert asked["runId"] in [item["runId"] for item in pending["items"]]
    # And a client of another tenant, same principal and scopes, reads nothing of it
    stranger = local_stack.jwt("agent-7", AGENT_SCOPES + " approvals:respond", tenant="globex")
    error = refusal(local_stack, stranger, "get_interrupt", {"run_id": asked["runId"]})
    assert (error.code, error.data["code"]) == (-32602, "not_found")
    assert call(local_stack, stranger, "list_pending", {})["items"] == []


def test_hostile_input_is_a_json_rpc_error_and_changes_nothing(local_stack: LocalStackHandle) -> None:
    agent = local_stack.jwt("agent-7", AGENT_SCOPES, tenant="acme")
    alice = local_stack.jwt("alice", "approvals:respond", tenant="acme")
    before = call(local_stack, alice, "list_pending", {})["items"]
    # When the ask is malformed (an action no approval has), of the wrong type, or of no such run
    bad_action = refusal(local_stack, agent, "request_approval", {"title": "x", "actions": ["explode"]})
    assert (bad_action.code, bad_action.data["code"]) == (-32602, "InterruptPayloadInvalid")
    assert "data.actions[0]" in bad_action.message
    # (arguments against the tool's input schema are the SDK's to refuse: a tool error the model can
    # read and correct, as MCP says, not a JSON-RPC error)
    wrong_type = tool_error(local_stack, agent, "request_approval", {"title": ["not", "text"]})
    assert "title" in wrong_type
    nowhere = refusal(local_stack, agent, "get_interrupt", {"run_id": "../../etc"})
    assert nowhere.data["code"] == "not_found"
    # And a reader may not ask
    reader = local_stack.jwt("auditor", "runs:read", tenant="acme")
    forbidden = refusal(local_stack, reader, "request_approval", ship("Sneak one in?", "k"))
    assert forbidden.data["code"] == "forbidden"
    # Then nothing was asked of anyone
    assert call(local_stack, alice, "list_pending", {})["items"] == before


def test_without_a_valid_token_the_401_points_at_the_resource_metadata(local_stack: LocalStackHandle) -> None:
    forged = local_stack.jwt("agent-7", AGENT_SCOPES)[:-4] + "AAAA"
    for token in (None, forged):
        answer = local_stack.http.post(
            "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, token=token
        )
        assert answer.status == 401, answer.body
        metadata_url = local_stack.api_url + "/.well-known/oauth-protected-resource/mcp"
        assert f'resource_metadata="{metadata_url}"' in answer.headers["www-authenticate"]
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
        document = local_stack.http.get(path).json()
        assert document["resource"] == local_stack.api_url + "/mcp"
        assert document["authorization_servers"] == [local_stack.description["jwt"]["issuer"]]


def test_waitgate_mcp_serves_the_tools_on_stdio_forwarded_to_the_stack(local_stack: LocalStackHandle) -> None:
    # Given `waitgate mcp` as a desktop client starts it (a process on stdio), as agent-9 of the stack
    command = StdioServerParameters(
        command=sys.executable,
        args=["-m", "local", "mcp", "--sub", "agent-9"],
        env=local_stack.environment,
        cwd=str(REPO_ROOT),
    )

    async def used() -> tuple[set[str], dict[str, Any], Any]:
        async with Client(command) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            asked = await client.call_tool(
                "wait_for_event",
                {"event_type": "payment.succeeded", "correlation": {"orderId": uuid.uuid4().hex}},
            )
            with pytest.raises(MCPError) as refused:
                await client.call_tool("get_interrupt", {"run_id": "no-such-run"})
            return names, dict(asked.structured_content or {}), refused.value

    names, asked, refused = asyncio.run(used())
    # Then the stack's tools are listed, a call reaches the stack, and its refusals come back as sent
    assert "wait_for_event" in names and asked["kind"] == "external-event"
    reader = local_stack.jwt("auditor", "runs:read")
    assert (
        local_stack.http.get(f"/runs/{asked['runId']}", token=reader).json()["status"] == "waiting-external"
    )
    assert (refused.code, refused.data["code"]) == (-32602, "not_found")


def test_a_client_that_is_not_ours_lists_and_calls_the_tools(local_stack: LocalStackHandle) -> None:
    # Given the MCP Inspector's CLI mode (the TypeScript SDK's client), with an agent's JWT
    agent = local_stack.jwt("agent-ts", AGENT_SCOPES)
    url = local_stack.api_url + "/mcp"
    try:
        listed = inspect(url, agent, "--method", "tools/list")
    except InspectorMissingError as missing:
        pytest.skip(str(missing))
    # Then it lists the five tools, with their schemas
    tools = {tool["name"]: tool for tool in listed["tools"]}
    assert {"request_approval", "get_interrupt", "list_pending"} <= set(tools)
    assert "outputSchema" in tools["get_interrupt"]
    # And its call asks alice, whose decision it reads back
    arguments = ["--tool-arg", "title=Approve the TypeScript client?", "--tool-arg", 'approvers=["alice"]']
    arguments += ["--tool-arg", f"request_key={uuid.uuid4().hex}"]
    asked = inspect(url, agent, "--method", "tools/call", "--tool-name", "request_approval", *arguments)
    assert (asked["isError"], asked["structuredContent"]["status"]) == (False, "pending")
    run_id = asked["structuredContent"]["runId"]
    approve_by_link(local_stack, run_id)
    read = inspect(
        url, agent, "--method", "tools/call", "--tool-name", "get_interrupt", "--tool-arg", f"run_id={run_id}"
    )
    assert (read["structuredContent"]["status"], read["structuredContent"]["decidedBy"]) == (
        "resolved",
        "alice",
    )
