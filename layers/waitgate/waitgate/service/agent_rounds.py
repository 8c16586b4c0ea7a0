"""An ask's rounds the MCP way (docs/mcp.md, "Waiting"): the caller's own decision link, and a round
used once.

When the caller of request_approval is an eligible approver of the ask it just made, and its client
can show a page (URL-mode elicitation), the tool's answer may offer them the human page itself:
`own_decision_link` mints their personal resolve link, as a notice would. It fails closed: no link
(None) when the ask no longer waits, the rules would refuse their vote, they voted already, or
anything on the way (the directory, the keyring) fails; the agent then gets the pending interrupt.

The client comes back with the round's state; `use_round` lets each round's one-time id through once
(a conditional put in the table, kept until the round's expiry), so a replayed state is refused and
changes nothing.
"""

from __future__ import annotations

import logging

from waitgate.errors import WaitgateError
from waitgate.run.agent_asks import AGENT_NODE
from waitgate.run.answerable import pending_record
from waitgate.run.identity import Caller
from waitgate.run.records import RunRef
from waitgate.service._eligibility import eligibility_of
from waitgate.service.agent_interrupts import AgentDependencies
from waitgate.service.mint_token import link_for
from waitgate.tokens import KeyringError

logger = logging.getLogger(__name__)
ROUND_KEY_PREFIX = "mcp-round:"


def own_decision_link(run_id: str, caller: Caller, deps: AgentDependencies) -> str | None:
    """The caller's own link to decide the approval their ask made, if they may decide it now."""
    own = deps.own_links
    if own is None:
        return None
    clock = deps.requests.clock
    try:
        view = deps.requests.store.load(RunRef.parse(caller.tenant_id, run_id), AGENT_NODE)
        record = pending_record(view, clock)
        if record.kind != "approval" or any(
            vote.get("principal") == caller.principal for vote in record.votes
        ):
            return None
        eligibility_of(record, caller.principal, own.directory, own.approval, clock.now())
        link = link_for(record, "resolve", caller.principal, own.keyring, clock.now(), own.links)
    except (WaitgateError, KeyringError) as error:  # not theirs to decide now, or a part failed: no link
        logger.info("no decision link offered", extra={"error_type": type(error).__name__})
        return None
    return link.url


def use_round(round_id: str, expires_at_epoch: int, deps: AgentDependencies) -> bool:
    """True the first time a round's id comes back; False ever after (and with no place to mark it)."""
    if deps.rounds is None:
        return False
    return deps.rounds.first_use(ROUND_KEY_PREFIX + round_id, expires_at_epoch)
