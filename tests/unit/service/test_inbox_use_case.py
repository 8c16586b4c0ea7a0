"""The inbox's pure rules and its use case on in-memory ports: who sees what (the vote's own rules and
directory, at read time, failing closed), in which order, with what progress, one read per page."""

from __future__ import annotations

import base64
import json
import secrets
from datetime import timedelta
from typing import Any

import pytest

from tests.fakes.memory import MemoryInbox
from tests.unit.service.world import ACCEPT, APPROVAL, CUSTOM, World, with_data
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.approval.delegation import Delegation
from waitgate.errors import ForbiddenError, ValidationFailedError
from waitgate.run.identity import Caller
from waitgate.run.records import RunRef
from waitgate.service.inbox_item import open_item
from waitgate.service.list_interrupts import InboxDependencies, InboxQuery, list_interrupts
from waitgate.tokens import Keyring

RESPOND = frozenset({"approvals:respond"})
READER = frozenset({"runs:read"})


def caller(principal: str, scopes: frozenset[str] = RESPOND, tenant: str = "default") -> Caller:
    return Caller(principal=principal, tenant_id=tenant, via="jwt", scopes=scopes)


def listed(world: World, who: Caller, **parameters: str) -> dict[str, Any]:
    deps = InboxDependencies(
        MemoryInbox(world.store), world.clock, world.keyring, world.directory, ApprovalConfig()
    )
    return list_interrupts(InboxQuery.parse(dict(parameters), who), who, deps)


def runs_of(body: dict[str, Any]) -> list[str]:
    return [item["runId"] for item in body["items"]]


def ask(world: World, run_id: str, payload: dict[str, Any], token: str | None = None) -> RunRef:
    run = RunRef("default", run_id)
    world.request(payload, run=run, token=token or f"task-{run_id}")
    return run


@pytest.fixture
def world() -> World:
    w = World()
    w.directory.add_member("default", "group", "release-managers", "alice")
    w.directory.add_member("default", "role", "sre", "ben")
    return w


def test_each_principal_sees_what_the_votes_rules_let_them_decide(world: World) -> None:
    # Given one approval alice is listed on, one for a group she is in, one for a role ben holds
    ask(world, "by-list", with_data(APPROVAL, approversList=["alice"]))
    ask(world, "by-group", with_data(APPROVAL, approverGroupRefs=["release-managers"]))
    ask(world, "by-role", with_data(APPROVAL, approverRoleRefs=["sre"]))
    # Then alice's inbox lists the first two, with why; ben's the third; carol's none
    alice = listed(world, caller("alice"))
    assert sorted(runs_of(alice)) == ["by-group", "by-list"]
    assert {i["runId"]: i["matchedBy"] for i in alice["items"]} == {
        "by-list": "list",
        "by-group": "group:release-managers",
    }
    assert runs_of(listed(world, caller("ben"))) == ["by-role"]
    assert listed(world, caller("carol"))["items"] == []
    # And another tenant's caller sees nothing of the tenant default
    assert listed(world, caller("alice", tenant="acme"))["items"] == []


def test_it_fails_closed_as_a_vote_does(world: World) -> None:
    # Given an approval whose list is present but empty, and one with no approver field at all
    ask(world, "nobody", with_data(APPROVAL, approversList=[]))
    ask(world, "open", APPROVAL)
    # Then nobody sees the first (it binds), everyone the second (recorded as open)
    items = listed(world, caller("alice"))["items"]
    assert [(i["runId"], i["matchedBy"]) for i in items] == [("open", "open")]


def test_another_kind_whose_task_named_who_is_asked_is_in_their_inbox_alone(world: World) -> None:
    # Given a custom interrupt its Task asked of alice and the role sre, and one that names nobody
    run = RunRef("default", "asked")
    world.request(CUSTOM, run=run, token="task-asked", notify={"principals": ["alice"], "roleRefs": ["sre"]})
    ask(world, "open", CUSTOM)
    # Then alice (by the list) and ben (by his role) see the first; carol only the open one
    assert {i["runId"]: i["matchedBy"] for i in listed(world, caller("alice"))["items"]} == {
        "asked": "list",
        "open": "open",
    }
    assert {i["runId"]: i["matchedBy"] for i in listed(world, caller("ben"))["items"]}["asked"] == "role:sre"
    assert runs_of(listed(world, caller("carol"))) == ["open"]


def test_an_override_principal_sees_every_approval(world: World) -> None:
    ask(world, "listed", with_data(APPROVAL, approversList=["alice"]))
    who = caller("oncall")
    deps = InboxDependencies(
        MemoryInbox(world.store),
        world.clock,
        world.keyring,
        world.directory,
        ApprovalConfig(override_principals=frozenset({"oncall"})),
    )
    body = list_interrupts(InboxQuery.parse({}, who), who, deps)
    assert [(i["runId"], i["matchedBy"]) for i in body["items"]] == [("listed", "override")]


def test_one_directory_read_for_a_whole_page(world: World) -> None:
    for n in range(5):
        ask(world, f"g{n}", with_data(APPROVAL, approverGroupRefs=[f"group-{n}", "release-managers"]))
    before = world.directory.reads
    assert len(listed(world, caller("alice"))["items"]) == 5
    assert world.directory.reads - before == 1


def test_a_resolved_interrupt_leaves_and_a_quorum_shows_its_progress_and_my_vote(world: World) -> None:
    # Given a 2-of-3 approval and a single one, both alice's
    ask(world, "quorum", with_data(APPROVAL, approversList=["alice", "ben", "carol"], requiredApprovals=2))
    ask(world, "single", with_data(APPROVAL, approversList=["alice"]))
    # When alice votes on the quorum and decides the single one
    world.resolve(dict(ACCEPT), run=RunRef("default", "quorum"))
    world.resolve(dict(ACCEPT), run=RunRef("default", "single"))
    # Then her inbox lists the quorum with "1 of 2" and her vote; ben's shows the same progress
    (mine,) = listed(world, caller("alice"))["items"]
    assert mine["runId"] == "quorum"
    assert mine["progress"] == {
        "approvals": 1,
        "requiredApprovals": 2,
        "rejections": 0,
        "rejectionsNeeded": 1,
    }
    assert mine["myVote"] == {"action": "accept", "decidedAt": ACCEPT["decidedAt"]}
    (bens,) = listed(world, caller("ben"))["items"]
    assert bens["progress"]["approvals"] == 1 and "myVote" not in bens


def test_past_its_deadline_an_interrupt_is_not_listed_even_before_it_expires(world: World) -> None:
    ask(world, "soon", {**with_data(APPROVAL, approversList=["alice"]), "timeoutMs": 60_000})
    assert runs_of(listed(world, caller("alice"))) == ["soon"]
    world.clock.advance(seconds=61)
    assert listed(world, caller("alice"))["items"] == []


def test_ordered_by_deadline_then_age_none_last(world: World) -> None:
    ask(world, "no-deadline-old", with_data(APPROVAL, approversList=["alice"]))
    world.clock.advance(seconds=1)
    ask(world, "late", {**with_data(APPROVAL, approversList=["alice"]), "timeoutMs": 3_600_000})
    world.clock.advance(seconds=1)
    ask(world, "early", {**with_data(APPROVAL, approversList=["alice"]), "timeoutMs": 60_000})
    world.clock.advance(seconds=1)
    ask(world, "no-deadline-new", with_data(APPROVAL, approversList=["alice"]))
    assert runs_of(listed(world, caller("alice"))) == ["early", "late", "no-deadline-old", "no-deadline-new"]


def test_pages_are_honest_when_eligibility_makes_them_short(world: World) -> None:
    # Given 3 interrupts alice may not decide before the 2 she may (by deadline)
    for n in range(3):
        ask(world, f"other-{n}", {**with_data(APPROVAL, approversList=["ben"]), "timeoutMs": 60_000 + n})
    for n in range(2):
        ask(world, f"mine-{n}", {**with_data(APPROVAL, approversList=["alice"]), "timeoutMs": 120_000 + n})
    # When alice reads pages of 2
    first = listed(world, caller("alice"), limit="2")
    # Then the first is empty yet says there is more, and following `next` finds hers, then the end
    assert first["items"] == [] and "next" in first
    seen, cursor, pages = [], first["next"], 1
    while cursor:
        page = listed(world, caller("alice"), limit="2", cursor=cursor)
        seen += runs_of(page)
        cursor, pages = page.get("next"), pages + 1
    assert seen == ["mine-0", "mine-1"] and pages <= 4


def test_eligible_any_lists_the_whole_tenant_for_a_reader(world: World) -> None:
    ask(world, "bens", with_data(APPROVAL, approversList=["ben"]))
    ask(world, "label", CUSTOM)
    body = listed(world, caller("alice", READER | RESPOND), eligible="any")
    assert sorted(runs_of(body)) == ["bens", "label"]
    by_run = {i["runId"]: i for i in body["items"]}
    assert "matchedBy" not in by_run["bens"] and by_run["label"]["matchedBy"] == "open"
    with pytest.raises(ForbiddenError):
        listed(world, caller("alice"), eligible="any")


def test_filters_by_kind_and_run(world: World) -> None:
    ask(world, "a1", with_data(APPROVAL, approversList=["alice"]))
    ask(world, "c1", CUSTOM)
    assert runs_of(listed(world, caller("alice"), kind="custom")) == ["c1"]
    assert runs_of(listed(world, caller("alice"), runId="a1")) == ["a1"]


def test_what_i_decided_lists_every_voter_of_the_deciding_tally(world: World) -> None:
    ask(world, "quorum", with_data(APPROVAL, approversList=["alice", "ben"], requiredApprovals=2))
    ask(world, "label", CUSTOM)
    world.resolve(dict(ACCEPT), run=RunRef("default", "quorum"))
    world.resolve(dict(ACCEPT), run=RunRef("default", "quorum"), caller=caller("ben"))
    world.resolve({"label": "x"}, run=RunRef("default", "label"))
    alice = listed(world, caller("alice"), status="resolved", decidedBy="me")
    assert sorted(runs_of(alice)) == ["label", "quorum"]
    quorum = next(i for i in alice["items"] if i["runId"] == "quorum")
    assert quorum["action"] == "accept" and quorum["myVote"]["action"] == "accept"
    assert runs_of(listed(world, caller("ben"), status="resolved", decidedBy="me")) == ["quorum"]


@pytest.mark.parametrize(
    ("parameters", "path"),
    [
        ({"limit": "101"}, "limit"),
        ({"limit": "0"}, "limit"),
        ({"status": "done"}, "status"),
        ({"status": "resolved"}, "decidedBy"),
        ({"eligible": "everyone"}, "eligible"),
        ({"kind": "nope"}, "kind"),
        ({"runId": "bad id"}, "runId"),
        ({"cursor": "%%%"}, "cursor"),
    ],
)
def test_malformed_parameters_are_400_naming_the_parameter(
    world: World, parameters: dict[str, str], path: str
) -> None:
    with pytest.raises(ValidationFailedError) as refused:
        listed(world, caller("alice"), **parameters)
    assert refused.value.extensions.get("path") == path


def test_a_caller_without_either_scope_is_refused() -> None:
    with pytest.raises(ForbiddenError):
        InboxQuery.parse({}, caller("alice", frozenset({"interrupts:mint"})))


def test_a_link_without_a_recipient_and_the_deadline_decide_for_nobody(world: World) -> None:
    from waitgate.run.inbox_items import decision_receipts

    run = ask(world, "label", CUSTOM)
    record = world.interrupt(run=run)
    assert decision_receipts(record, "token:01JTI", {"label": "x"}, "2026-11-30T10:00:00.000Z") == ()
    (mine,) = decision_receipts(record, "alice", {"label": "x"}, "2026-11-30T10:00:00.000Z")
    assert (mine.principal, mine.action, mine.vote) == ("alice", None, None)
    # a resolution without a decider (the deadline's resolveWith) writes no receipt
    from waitgate.run.records import RunView
    from waitgate.service.resolve_interrupt import resolution_change

    view = RunView(world.store.snapshots[run], record)
    assert resolution_change(view, record, {"label": "x"}, "2026-11-30T10:00:00.000Z").receipts == ()


def _forge(position: list[str]) -> str:
    """A cursor as the store lays out its position, without this host's MAC: what anyone can make."""
    text = json.dumps(position, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(text).rstrip(b"=").decode()


def test_a_cursor_this_host_did_not_give_is_400_and_reads_nothing(world: World) -> None:
    for n in range(3):
        ask(world, f"mine-{n}", with_data(APPROVAL, approversList=["alice"]))
    first = listed(world, caller("alice"), limit="1")
    given = first["next"]
    forged = [
        _forge(["~#2026-01-01T00:00:00.000Z#0", "mine-0", "Gate"]),  # the store's own layout, unsigned
        given[:-1] + ("A" if given[-1] != "A" else "B"),  # its MAC altered
        _forge(["k1", "x"]) + given[-43:],  # another position under its MAC
        given + given[-43:],
        "A" * 44,
        "A" * 2049,
    ]
    for cursor in forged:
        with pytest.raises(ValidationFailedError) as refused:
            listed(world, caller("alice"), limit="1", cursor=cursor)
        assert refused.value.extensions["path"] == "cursor"
    # And the one it gave still leads on
    assert runs_of(listed(world, caller("alice"), limit="1", cursor=given))


@pytest.mark.parametrize(
    ("who", "parameters"),
    [
        ("ben", {}),  # another principal
        ("alice", {"tenant": "acme"}),  # another tenant
        ("alice", {"kind": "approval"}),  # another filter
        ("alice", {"runId": "mine-1"}),
        ("alice", {"eligible": "any"}),
    ],
)
def test_a_cursor_given_to_another_principal_tenant_or_filter_does_not_open(
    world: World, who: str, parameters: dict[str, str]
) -> None:
    for n in range(3):
        ask(world, f"mine-{n}", with_data(APPROVAL, approversList=["alice", "ben"]))
    given = listed(world, caller("alice", READER | RESPOND), limit="1")["next"]
    tenant = parameters.pop("tenant", "default")
    with pytest.raises(ValidationFailedError):
        listed(world, caller(who, READER | RESPOND, tenant=tenant), limit="1", cursor=given, **parameters)


def test_a_cursor_of_a_rotated_out_key_no_longer_opens_and_of_a_kept_one_does(world: World) -> None:
    for n in range(3):
        ask(world, f"mine-{n}", with_data(APPROVAL, approversList=["alice"]))
    given = listed(world, caller("alice"), limit="1")["next"]
    old = world.keyring
    world.keyring = Keyring("k2", {"k1": old.key_for("k1") or b"", "k2": secrets.token_bytes(32)})
    assert runs_of(listed(world, caller("alice"), limit="1", cursor=given))
    world.keyring = Keyring("k2", {"k2": world.keyring.key_for("k2") or b""})
    with pytest.raises(ValidationFailedError):
        listed(world, caller("alice"), limit="1", cursor=given)


def test_a_delegate_sees_the_approvals_of_whom_they_decide_for_while_it_holds(world: World) -> None:
    # Given alice delegating to bob for an hour, one approval for alice's group and one for ben's role
    until = world.clock.now() + timedelta(hours=1)
    world.directory.delegate("default", Delegation("alice", "bob", until=until))
    ask(world, "by-group", with_data(APPROVAL, approverGroupRefs=["release-managers"]))
    ask(world, "by-role", with_data(APPROVAL, approverRoleRefs=["sre"]))
    # Then bob's inbox lists alice's, saying he decides for her; not ben's
    bob = listed(world, caller("bob"))
    assert {i["runId"]: i["matchedBy"] for i in bob["items"]} == {"by-group": "delegate-of:alice"}
    # And he may open it in place, to decide it for her
    run, config = RunRef("default", "by-group"), ApprovalConfig()
    opened = open_item(run, "Gate", caller("bob"), world.store, world.directory, config, world.clock)
    assert (opened.matched_by, opened.may_act) == ("delegate-of:alice", True)
    # And once it ended, nothing, and opening it is refused
    world.clock.advance(hours=1)
    assert listed(world, caller("bob"))["items"] == []
    with pytest.raises(ForbiddenError):
        open_item(run, "Gate", caller("bob"), world.store, world.directory, config, world.clock)
