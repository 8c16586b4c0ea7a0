"""An ask's rounds (service.agent_rounds), on the in-memory host: the caller's own decision link is
offered only while they may decide their pending approval (fails closed otherwise), opens the human
page for them alone, and a round's id is let through once."""

from __future__ import annotations

from dataclasses import replace

from tests.unit.service.world import ACCEPT, World
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.run.agent_asks import AGENT_NODE, AgentAsk
from waitgate.run.identity import Caller
from waitgate.run.records import RunRef
from waitgate.service.agent_interrupts import AgentDependencies, OwnLinks, ask
from waitgate.service.agent_rounds import own_decision_link, use_round
from waitgate.tokens import verify

SCOPES = frozenset({"interrupts:request", "runs:read", "approvals:respond"})
ALICE = Caller("alice", "acme", "jwt", SCOPES)
BEN = Caller("ben", "acme", "jwt", SCOPES)


class Marks:
    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def first_use(self, key: str, expires_at_epoch: int) -> bool:
        if key in self.seen:
            return False
        self.seen[key] = expires_at_epoch
        return True


def rounds_world(**data: object) -> tuple[World, AgentDependencies, str]:
    """alice's ask for her own approval (with `data`), and the host that can offer her its page."""
    world = World()
    config = ApprovalConfig(ref_kinds=world.ref_kinds)
    own = OwnLinks(world.keyring, world.directory, world.links(), config)
    deps = AgentDependencies(world.requesting(), "https://api.example.com/inbox", own, Marks())
    asked = {"artifactId": "b1", "artifactType": "mcp", "title": "Mine?", "actions": ["accept", "reject"]}
    view = ask(AgentAsk("request_approval", asked | {"approversList": ["alice"]} | data, {}), ALICE, deps)
    return world, deps, view["runId"]


def test_an_eligible_approver_gets_her_own_link_to_the_page() -> None:
    world, deps, run_id = rounds_world()
    link = own_decision_link(run_id, ALICE, deps)
    assert link is not None and link.startswith(world.links().public_base_url + "/interrupts/")
    claims = verify(link.rsplit("/", 1)[1], world.keyring, world.clock.now())
    assert (claims.run_id, claims.node_id, claims.sub, claims.intent) == (
        run_id,
        AGENT_NODE,
        "alice",
        "resolve",
    )


def test_no_link_for_someone_the_rules_refuse_another_tenant_or_an_ask_that_no_longer_waits() -> None:
    world, deps, run_id = rounds_world()
    assert own_decision_link(run_id, BEN, deps) is None
    assert own_decision_link(run_id, replace(ALICE, tenant_id="globex"), deps) is None
    assert own_decision_link("mcp-no-such-run", ALICE, deps) is None
    world.resolve(ACCEPT, node=AGENT_NODE, run=RunRef("acme", run_id), caller=ALICE)
    assert own_decision_link(run_id, ALICE, deps) is None


def test_no_link_once_she_voted_or_without_the_parts_to_make_one() -> None:
    world, deps, run_id = rounds_world(approversList=["alice", "ben"], requiredApprovals=2)
    world.resolve(ACCEPT, node=AGENT_NODE, run=RunRef("acme", run_id), caller=ALICE)
    assert own_decision_link(run_id, ALICE, deps) is None  # voted: waits for ben now
    assert own_decision_link(run_id, BEN, deps) is not None
    assert own_decision_link(run_id, BEN, replace(deps, own_links=None)) is None


def test_a_round_is_let_through_once_and_never_without_a_place_to_mark_it() -> None:
    _, deps, _ = rounds_world()
    assert use_round("r1", 1_800_000_000, deps) is True
    assert use_round("r1", 1_800_000_000, deps) is False
    assert use_round("r2", 1_800_000_000, deps) is True
    assert use_round("r3", 1_800_000_000, replace(deps, rounds=None)) is False
