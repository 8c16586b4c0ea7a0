"""What request_approval answers, by what the client declares (docs/mcp.md, "Waiting").

A client of protocol 2026-07-28 that declares URL-mode elicitation, whose own user is an eligible
approver of the ask just made, gets an InputRequiredResult: the human page (their own signed link,
service.agent_rounds) as a URL elicitation, and a `requestState` naming the ask's run and a one-time
round id. The client shows the page; once the user is done it retries the call with the state, and
the answer is the interrupt as it then stands (resolved with their decision, or still pending if
they left it). Any other client, or a caller who may not decide, gets the pending interrupt at once.
The interrupt is recorded once either way: the first round makes it, a retry reads it back.

A state that is forged, altered, expired, of another principal or another call is refused by the
SDK's boundary (mcp_server.request_states); one used before, or naming another run, here: the same
JSON-RPC error, `-32602` "Invalid or expired requestState", and nothing changed.
"""

from __future__ import annotations

from typing import Any, Final

from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ElicitRequest, ElicitRequestURLParams, InputRequiredResult
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ConfigDict, ValidationError

from waitgate.mcp_server.request_states import ROUND_SECONDS
from waitgate.run.identity import Caller
from waitgate.run.records import JSONObject
from waitgate.service.agent_interrupts import AgentDependencies
from waitgate.service.agent_rounds import own_decision_link, use_round
from waitgate.tokens import new_jti

DECISION: Final = "decision"  # the input request's key


class RoundState(BaseModel):
    """The state's plaintext, inside the SDK's envelope: which ask, which round."""

    model_config = ConfigDict(extra="forbid")

    run: str
    round: str


def offers_page(ctx: Context[Any, Any]) -> bool:
    """The client takes multi-round answers and can send its user to a URL."""
    declared = ctx.client_capabilities
    elicitation = declared.elicitation if declared is not None else None
    return (
        ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        and elicitation is not None
        and elicitation.url is not None
    )


def first_answer(
    view: JSONObject, title: str, caller: Caller, ctx: Context[Any, Any], deps: AgentDependencies
) -> JSONObject | InputRequiredResult:
    """The pending interrupt, or the page for the caller to decide it themselves."""
    if view["status"] != "pending" or deps.rounds is None or not offers_page(ctx):
        return view
    link = own_decision_link(view["runId"], caller, deps)
    if link is None:
        return view
    message = f"Decide “{title}” on waitgate's page (a link for you alone); come back once you have."
    page = ElicitRequest(params=ElicitRequestURLParams(message=message, url=link))
    state = RoundState(run=view["runId"], round=new_jti()).model_dump_json()
    return InputRequiredResult(input_requests={DECISION: page}, request_state=state)


def use_state(state: str, run_id: str, deps: AgentDependencies) -> None:
    """A retry's state (verified by the boundary): of this ask, and never used before."""
    try:
        parsed = RoundState.model_validate_json(state)
    except ValidationError:
        raise _refused() from None
    expires_at = int(deps.requests.clock.now().timestamp()) + ROUND_SECONDS
    if parsed.run != run_id or not use_round(parsed.round, expires_at, deps):
        raise _refused()


def _refused() -> MCPError:
    """The SDK boundary's own refusal, word for word: nothing tells one reason from another."""
    data = {"reason": "invalid_request_state"}
    return MCPError(code=INVALID_PARAMS, message="Invalid or expired requestState", data=data)
