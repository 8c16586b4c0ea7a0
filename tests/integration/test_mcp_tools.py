"""waitgate's MCP tools on moto, the SDK's client connected in-process to the SDK's server (the HTTP
transport and its bearer check are the e2e tests'): each asking tool makes one interrupt of its kind
through request_interrupt, a retry is that interrupt, a decision on the run surface is what
get_interrupt reads, list_pending is the inbox, another tenant reads nothing, a refusal is a JSON-RPC
error and writes nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest
from mcp import Client
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.shared.exceptions import MCPError

from tests.support.handlers import Handler, http_event, sample_event
from tests.support.run_reads import get_run_event
from waitgate.mcp_server.bearer import JwtVerifier
from waitgate.mcp_server.tools import build_server

T = TypeVar("T")
ISSUER = "https://issuer.example.com"
ACCEPT = {"action": "accept", "decidedAt": "2026-12-02T10:00:00Z"}


def as_caller(sub: str, scope: str, tenant: str, use: Callable[[Client], Awaitable[T]]) -> T:
    """`use(client)` with the server seeing `sub` of `tenant` (the claims a verified JWT would give)."""
    from waitgate.wiring.composition import inbox_dependencies
    from waitgate.wiring.request_composition import agent_dependencies

    auth = AuthSettings.model_validate(
        {
            "issuer_url": ISSUER,
            "resource_server_url": "https://api.example.com/mcp",
            "validate_token_resource": False,
        }
    )
    server = build_server(agent_dependencies, inbox_dependencies, auth, JwtVerifier(ISSUER, ("waitgate",)))
    claims = {"sub": sub, "scope": scope, "tenant": tenant, "iss": ISSUER}
    token = AccessToken(token="t", client_id=sub, scopes=scope.split(), subject=sub, claims=claims)

    async def connected() -> T:
        async with Client(server) as client:
            return await use(client)

    entered = auth_context_var.set(AuthenticatedUser(token))
    try:
        return asyncio.run(connected())
    finally:
        auth_context_var.reset(entered)


def call(sub: str, scope: str, tenant: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    async def calling(client: Client) -> dict[str, Any]:
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content
        return dict(result.structured_content or {})

    return as_caller(sub, scope, tenant, calling)


def refused(sub: str, scope: str, tenant: str, tool: str, arguments: dict[str, Any]) -> MCPError:
    async def calling(client: Client) -> MCPError:
        with pytest.raises(MCPError) as raised:
            await client.call_tool(tool, arguments)
        return raised.value

    return as_caller(sub, scope, tenant, calling)


AGENT = ("agent-7", "interrupts:request runs:read", "acme")


def test_an_approval_asked_over_mcp_is_decided_on_the_run_surface_and_read_back(environment: None) -> None:
    ship = {"title": "Ship?", "approvers": ["alice"], "request_key": "k1"}
    asked = call(*AGENT, "request_approval", ship)
    assert (asked["kind"], asked["status"], asked["inboxUrl"]) == (
        "approval",
        "pending",
        "https://links.example.com/inbox",
    )
    assert call(*AGENT, "request_approval", ship) == asked
    # alice finds it in her inbox, and decides on the run surface
    pending = call("alice", "approvals:respond", "acme", "list_pending", {})
    assert [item["runId"] for item in pending["items"]] == [asked["runId"]]
    answer = Handler("resolve_by_run")(
        http_event(asked["runId"], "Interrupt", {"resumeValue": ACCEPT}, tenant="acme")
    )
    assert answer["statusCode"] == 200, answer["body"]
    read = call(*AGENT, "get_interrupt", {"run_id": asked["runId"]})
    assert (read["status"], read["decidedBy"], read["interruptId"]) == (
        "resolved",
        "alice",
        asked["interruptId"],
    )
    # Another tenant's agent reads nothing of it
    stranger = refused(
        "agent-7", "interrupts:request runs:read", "globex", "get_interrupt", {"run_id": asked["runId"]}
    )
    assert (stranger.code, stranger.data["code"]) == (-32602, "not_found")


def test_a_question_and_an_event_wait_are_interrupts_of_their_kinds(environment: None) -> None:
    question = {
        "questions": [{"id": "region", "question": "Which region?", "schema": {"enum": ["eu", "us"]}}]
    }
    asked = call(*AGENT, "ask_question", question)
    waited = call(
        *AGENT, "wait_for_event", {"event_type": "payment.succeeded", "correlation": {"orderId": "o-1"}}
    )
    assert (asked["kind"], waited["kind"]) == ("clarification", "external-event")
    # And each is a run of the agent's tenant, waiting as a workflow's would
    for view, status in ((asked, "waiting-input"), (waited, "waiting-external")):
        answer = Handler("get_run")(get_run_event(view["runId"], tenant="acme"))
        assert json.loads(answer["body"])["status"] == status, answer["body"]


def test_a_refused_ask_is_a_json_rpc_error_that_writes_nothing(environment: None) -> None:
    bad = refused(*AGENT, "request_approval", {"title": "x", "actions": ["explode"]})
    assert (bad.code, bad.data) == (-32602, {"code": "InterruptPayloadInvalid", "status": 400})
    reader = refused("auditor", "runs:read", "acme", "request_approval", {"title": "x"})
    assert reader.data["code"] == "forbidden"
    assert call("alice", "runs:read", "acme", "list_pending", {})["items"] == []


@pytest.fixture
def mcp_function(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Handler]:
    """functions/serve_mcp on moto, an instance of its own (the SDK's app built on its first call)."""
    from waitgate.mcp_server.serving import mcp_exchange

    monkeypatch.setenv("OIDC_ISSUER", ISSUER)
    mcp_exchange.cache_clear()
    yield Handler("serve_mcp")
    mcp_exchange.cache_clear()


def test_the_function_answers_without_a_bearer_jwt_401_pointing_at_its_metadata(
    mcp_function: Handler,
) -> None:
    # When the sample event (tools/list) comes without an Authorization header
    answer = mcp_function(sample_event("serve_mcp"))
    # Then the SDK's bearer middleware refuses it, naming the metadata, which is served
    assert answer["statusCode"] == 401, answer
    metadata_url = "https://links.example.com/.well-known/oauth-protected-resource/mcp"
    assert f'resource_metadata="{metadata_url}"' in answer["headers"]["www-authenticate"]
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
        event = sample_event("serve_mcp") | {"rawPath": path, "body": None}
        event["requestContext"] = {**event["requestContext"], "http": {"method": "GET", "path": path}}
        document = json.loads(mcp_function(event)["body"])
        assert document["resource"] == "https://links.example.com/mcp"
        assert document["authorization_servers"] == [ISSUER]
