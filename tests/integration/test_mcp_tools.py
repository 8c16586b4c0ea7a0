"""waitgate's MCP tools on moto, the SDK's client connected in-process to the SDK's server (the HTTP
transport and its bearer check are the e2e tests'): each asking tool makes one interrupt of its kind
through request_interrupt, a retry is that interrupt, a decision on the run surface is what
get_interrupt reads, list_pending is the inbox, another tenant reads nothing, a refusal is a JSON-RPC
error and writes nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from mcp import Client
from mcp.client.session import ElicitationFnT
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.shared.exceptions import MCPError

from tests.fakes.memory import FixedClock
from tests.support.handlers import Handler, http_event, sample_event
from tests.support.run_reads import get_run_event, list_events_event
from waitgate.mcp_server.bearer import JwtVerifier
from waitgate.mcp_server.tools import build_server
from waitgate.ports import Clock
from waitgate.run.clock import SystemClock

T = TypeVar("T")
ISSUER = "https://issuer.example.com"
ACCEPT = {"action": "accept", "decidedAt": "2026-12-02T10:00:00Z"}


def as_caller(
    sub: str,
    scope: str,
    tenant: str,
    use: Callable[[Client], Awaitable[T]],
    *,
    elicitation: ElicitationFnT | None = None,
    clock: Clock | None = None,
    extensions: list[Any] | None = None,
) -> T:
    """`use(client)` with the server seeing `sub` of `tenant` (the claims a verified JWT would give);
    a client with an `elicitation` callback declares URL-mode elicitation, as the SDK's does."""
    from waitgate.wiring.composition import inbox_dependencies, keyring
    from waitgate.wiring.request_composition import agent_dependencies

    auth = AuthSettings.model_validate(
        {
            "issuer_url": ISSUER,
            "resource_server_url": "https://api.example.com/mcp",
            "validate_token_resource": False,
        }
    )
    verifier = JwtVerifier(ISSUER, ("waitgate",))
    server = build_server(agent_dependencies, inbox_dependencies, auth, verifier, keyring, clock)
    claims = {"sub": sub, "scope": scope, "tenant": tenant, "iss": ISSUER}
    token = AccessToken(token="t", client_id=sub, scopes=scope.split(), subject=sub, claims=claims)

    async def connected() -> T:
        async with Client(server, elicitation_callback=elicitation, extensions=extensions) as client:
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


def run_of(view: dict[str, Any], tenant: str = "acme") -> dict[str, Any]:
    """The ask's run as the run surface shows it (GET /runs/{id}) and its events' types."""
    answer = Handler("get_run")(get_run_event(view["runId"], tenant=tenant))
    assert answer["statusCode"] == 200, answer["body"]
    listed = Handler("list_run_events")(list_events_event(view["runId"], tenant=tenant))
    types = [event["type"] for event in json.loads(listed["body"])["events"]]
    run: dict[str, Any] = json.loads(answer["body"])
    return run | {"eventTypes": types}


def test_an_asks_run_ends_with_its_interrupt_completed_once_decided(environment: None) -> None:
    # Given an ask whose run waits for alice (nothing hangs: it must end with her decision)
    asked = call(*AGENT, "request_approval", {"title": "Ship?", "approvers": ["alice"], "request_key": "end"})
    assert (asked["runStatus"], run_of(asked)["status"]) == ("waiting-approval", "waiting-approval")
    # When alice accepts
    answer = Handler("resolve_by_run")(
        http_event(asked["runId"], "Interrupt", {"resumeValue": ACCEPT}, tenant="acme")
    )
    assert answer["statusCode"] == 200, answer["body"]
    # Then the run is completed, as a workflow's is once its execution ends, and says so in its log
    read = call(*AGENT, "get_interrupt", {"run_id": asked["runId"]})
    run = run_of(asked)
    assert (read["status"], read["runStatus"], run["status"]) == ("resolved", "completed", "completed")
    assert run["eventTypes"][-3:] == ["interrupt.resolved", "approval.resolved", "run.status_changed"]
    # And the same call again reads the ended ask back: no second interrupt, no second run
    again = call(*AGENT, "request_approval", {"title": "Ship?", "approvers": ["alice"], "request_key": "end"})
    assert (again["interruptId"], again["runStatus"]) == (asked["interruptId"], "completed")


def test_an_asks_run_fails_when_its_deadline_passes_undecided(environment: None) -> None:
    from waitgate.run.records import RunRef
    from waitgate.service.deliver_resolution import DeliveryDependencies
    from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
    from waitgate.wiring import composition

    # Given an ask with a one-minute deadline nobody answers
    asked = call(
        *AGENT, "ask_question", {"questions": [{"id": "q", "question": "Why?"}], "timeout_seconds": 60}
    )
    # When its deadline's schedule fires, two minutes on
    later = FixedClock(SystemClock().now() + timedelta(minutes=2))
    deps = DeliveryDependencies(composition.store(), composition.workflow(), later)
    expiry = ExpiryRequest(RunRef("acme", asked["runId"]), "Interrupt", asked["interruptId"])
    assert expire_interrupt(expiry, deps) == "expired"
    # Then the run failed, as a workflow's run fails with InterruptTimedOut
    read = call(*AGENT, "get_interrupt", {"run_id": asked["runId"]})
    assert (read["status"], read["runStatus"], run_of(asked)["status"]) == ("expired", "failed", "failed")


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
