"""Waiting the MCP way, on moto with the SDK's client in-process (docs/mcp.md, "Waiting"): an approver
asking herself, through a client that can open a page, decides there and the call ends with her
decision; a client without a page, or a caller who may not decide, gets the pending interrupt; a
requestState forged, replayed, expired, of another user or tenant, or never given is refused and
changes nothing; a client declaring MCP Tasks gets a task whose state is the interrupt."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequestURLParams, ElicitResult, InputRequiredResult, Request
from pydantic import TypeAdapter

from tests.fakes.memory import FixedClock
from tests.integration.test_mcp_tools import ACCEPT, AGENT, as_caller, call, run_of
from tests.support.handlers import Handler, http_event
from tests.support.hypothesis_profiles import examples
from tests.support.links import token_event
from tests.support.mcp_tasks_client import PollingTasks, get_task
from waitgate.ports import Clock
from waitgate.run.clock import SystemClock

ALICE = ("alice", "interrupts:request runs:read approvals:respond", "acme")
HER_OWN = {"title": "Deploy my branch?", "approvers": ["alice"], "request_key": "own"}
INVALID_STATE = (-32602, "Invalid or expired requestState")


async def decides_on_the_page(context: Any, params: Any) -> ElicitResult:
    """alice's client shows her the page it was given; she accepts there (the page's POST)."""
    assert isinstance(params, ElicitRequestURLParams), params
    token = params.url.rsplit("/interrupts/", 1)[1]
    answer = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    assert answer["statusCode"] == 200, answer["body"]
    return ElicitResult(action="accept")


def test_an_approver_asking_herself_decides_on_the_page_her_client_opens_and_the_call_ends_with_it(
    environment: None,
) -> None:
    # When alice's agent asks for her own approval, through a client that can open a page
    async def asking(client: Client) -> dict[str, Any]:
        result = await client.call_tool("request_approval", HER_OWN)
        assert not result.is_error, result.content
        return dict(result.structured_content or {})

    decided = as_caller(*ALICE, asking, elicitation=decides_on_the_page)
    # Then the SDK's client drove the round: the call's answer is her decision, and the run ended
    assert (decided["status"], decided["decidedBy"], decided["resumeValue"]["action"]) == (
        "resolved",
        "alice",
        "accept",
    )
    assert decided["runStatus"] == "completed"
    # And the interrupt was recorded once: the same call again reads it back
    assert call(*ALICE, "request_approval", HER_OWN)["interruptId"] == decided["interruptId"]


def test_a_client_without_a_page_or_a_caller_who_may_not_decide_gets_the_pending_interrupt(
    environment: None,
) -> None:
    # alice's client cannot open a page: the pending interrupt at once, as before
    assert call(*ALICE, "request_approval", HER_OWN)["status"] == "pending"

    # an agent that is not an approver, with a client that could: the pending interrupt too
    async def asking(client: Client) -> dict[str, Any]:
        result = await client.call_tool("request_approval", {**HER_OWN, "request_key": "agent"})
        return dict(result.structured_content or {})

    async def never(context: Any, params: Any) -> ElicitResult:
        raise AssertionError("no page is offered to a caller who may not decide")

    assert as_caller(*AGENT, asking, elicitation=never)["status"] == "pending"


def first_round(clock: Clock | None = None) -> tuple[InputRequiredResult, dict[str, Any]]:
    """alice's ask, its first round as it came (a client that can open a page, driving it by hand)."""

    async def asking(client: Client) -> InputRequiredResult:
        answered = await client.session.call_tool("request_approval", HER_OWN, allow_input_required=True)
        assert isinstance(answered, InputRequiredResult), answered
        return answered

    async def unused(context: Any, params: Any) -> ElicitResult:
        raise AssertionError("driven by hand")

    answered = as_caller(*ALICE, asking, elicitation=unused, clock=clock)
    assert answered.request_state is not None and answered.input_requests is not None
    page = answered.input_requests["decision"].params
    assert isinstance(page, ElicitRequestURLParams) and "/interrupts/" in page.url
    return answered, call(*ALICE, "get_interrupt", {"run_id": json_run(answered)})


def json_run(answered: InputRequiredResult) -> str:
    """The ask's run id, as the state's envelope carries it (signed, readable)."""
    import base64

    payload = answered.request_state.split(".")[2]  # type: ignore[union-attr]
    envelope = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return str(json.loads(envelope["s"])["run"])


def retry(
    state: str, who: tuple[str, str, str] = ALICE, clock: Clock | None = None
) -> dict[str, Any] | MCPError:
    async def retrying(client: Client) -> dict[str, Any] | MCPError:
        try:
            result = await client.session.call_tool(
                "request_approval",
                HER_OWN,
                input_responses={"decision": ElicitResult(action="accept")},
                request_state=state,
            )
        except MCPError as error:
            return error
        return dict(result.structured_content or {})

    async def unused(context: Any, params: Any) -> ElicitResult:
        raise AssertionError("driven by hand")

    return as_caller(*who, retrying, elicitation=unused, clock=clock)


def refusal_of(answer: dict[str, Any] | MCPError) -> tuple[int, str]:
    assert isinstance(answer, MCPError), answer
    return answer.code, answer.message


def test_a_forged_replayed_expired_or_strangers_request_state_is_refused_and_changes_nothing(
    environment: None,
) -> None:
    clock = FixedClock(SystemClock().now())
    answered, pending = first_round(clock)
    state = answered.request_state
    assert state is not None
    events = run_of(pending)["eventTypes"]
    # forged: a changed character, or a state made up
    assert refusal_of(retry(state[:-1] + ("A" if state[-1] != "A" else "B"))) == INVALID_STATE
    assert refusal_of(retry("w1.e30.e30." + "A" * 43)) == INVALID_STATE
    # another tenant's client, or another user of alice's tenant, with alice's state
    assert refusal_of(retry(state, ("alice", ALICE[1], "globex"))) == INVALID_STATE
    assert refusal_of(retry(state, ("ben", ALICE[1], "acme"))) == INVALID_STATE
    # expired: past the round's hour
    clock.advance(hours=2)
    assert refusal_of(retry(state, clock=clock)) == INVALID_STATE
    clock.advance(hours=-2)
    # Nothing changed meanwhile
    assert run_of(pending)["eventTypes"] == events
    # The state itself is good once: the interrupt as it stands (alice left the page undecided)
    assert retry(state, clock=clock)["interruptId"] == pending["interruptId"]  # type: ignore[index]
    # and never again (replayed)
    assert refusal_of(retry(state, clock=clock)) == INVALID_STATE
    assert run_of(pending)["eventTypes"] == events
    assert call(*ALICE, "get_interrupt", {"run_id": pending["runId"]})["status"] == "pending"


@settings(
    max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    state=st.text(max_size=300)
    | st.from_regex(r"w1\.[A-Za-z0-9_-]{1,40}\.[A-Za-z0-9_-]{1,80}\.[A-Za-z0-9_-]{43}", fullmatch=True)
)
def test_any_request_state_this_host_did_not_give_is_refused_and_asks_nobody(
    environment: None, state: str
) -> None:
    # A retry carrying a state nobody was given (of a call never made): refused, nothing asked
    assert refusal_of(retry(state)) == INVALID_STATE
    assert call("alice", "approvals:respond", "acme", "list_pending", {})["items"] == []


def test_a_client_declaring_tasks_gets_a_task_whose_state_is_the_interrupt(environment: None) -> None:
    ship = {"title": "Ship as a task?", "approvers": ["alice"], "request_key": "task"}

    async def alice_decides(task_id: str) -> None:
        # meanwhile (tasks/get said working), alice accepts on the run surface
        event = http_event(task_id, "Interrupt", {"resumeValue": ACCEPT}, tenant="acme")
        answer = Handler("resolve_by_run")(event)
        assert answer["statusCode"] == 200, answer["body"]

    tasks = PollingTasks(alice_decides)

    async def asking(client: Client) -> dict[str, Any]:
        result = await client.call_tool("request_approval", ship)
        assert not result.is_error, result.content
        return dict(result.structured_content or {})

    # When a client that declares MCP Tasks asks for alice's approval
    decided = as_caller(*AGENT, asking, extensions=[tasks])
    # Then the call answered a task (the ask's run), working, and tasks/get reported it completed
    # with the tool's result once alice decided: her decision, the run ended
    (created,) = tasks.created
    assert (created.status, created.task_id) == ("working", decided["runId"])
    assert [task["status"] for task in tasks.polled] == ["working", "completed"]
    assert (decided["status"], decided["decidedBy"], decided["runStatus"]) == (
        "resolved",
        "alice",
        "completed",
    )
    # And the same call again, decided, answers the interrupt itself (no task for what has ended)
    assert as_caller(*AGENT, asking, extensions=[PollingTasks()])["interruptId"] == decided["interruptId"]

    # A client of another tenant finds no such task
    async def stranger(client: Client) -> MCPError:
        with pytest.raises(MCPError) as refused:
            await get_task(client.session, created.task_id)
        return refused.value

    refused = as_caller("agent-7", AGENT[1], "globex", stranger, extensions=[PollingTasks()])
    assert (refused.code, refused.data["code"]) == (-32602, "not_found")

    # And an agent does not withdraw a person's question: tasks/cancel is no method here
    async def cancelling(client: Client) -> MCPError:
        request = Request[dict[str, Any], str](method="tasks/cancel", params={"taskId": created.task_id})
        session: Any = client.session  # tasks/cancel is no method of the SDK's typed surface
        with pytest.raises(MCPError) as refused:
            await session.send_request(request, TypeAdapter(dict[str, Any]))
        return refused.value

    assert as_caller(*AGENT, cancelling, extensions=[PollingTasks()]).code == -32601
