"""Delegation at decision time: bob decides what alice may decide while it holds, for her seat once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.fakes.memory import MemoryDirectory
from tests.unit.service.gate_records import record
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.approval.delegation import Delegation
from waitgate.errors import AlreadyVotedError, ForbiddenError, SelfApprovalRefusedError
from waitgate.service._eligibility import eligibility_of

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
CONFIG = ApprovalConfig(override_principals=frozenset({"lead"}))


def vote(principal: str, matched_by: str) -> dict[str, Any]:
    at = "2026-12-03T09:30:00.000Z"
    return {
        "principal": principal,
        "action": "accept",
        "decidedAt": at,
        "eligibility": {"principal": principal, "matchedBy": matched_by, "resolvedAt": at},
    }


def directory_with(*delegations: Delegation, tenant: str = "acme") -> MemoryDirectory:
    directory = MemoryDirectory()
    directory.add_member("acme", "group", "finance", "alice")
    for delegation in delegations:
        directory.delegate(tenant, delegation)
    return directory


BOB_FOR_ALICE = Delegation("alice", "bob", until=NOW + timedelta(hours=1))


@pytest.mark.parametrize("data", [{"approversList": ["alice"]}, {"approverGroupRefs": ["finance"]}])
def test_while_it_holds_bob_decides_for_alice_recorded_as_her_delegate(data: dict[str, Any]) -> None:
    found = eligibility_of(record(**data), "bob", directory_with(BOB_FOR_ALICE), CONFIG, NOW)
    assert found is not None
    assert (found.principal, found.matched_by) == ("bob", "delegate-of:alice")


def test_at_and_after_until_bob_is_refused_as_any_non_approver() -> None:
    directory = directory_with(BOB_FOR_ALICE)
    for later in (BOB_FOR_ALICE.until, NOW + timedelta(days=1)):
        assert later is not None
        with pytest.raises(ForbiddenError, match="not an eligible approver") as refused:
            eligibility_of(record(approversList=["alice"]), "bob", directory, CONFIG, later)
        assert type(refused.value) is ForbiddenError


def test_a_delegation_without_until_holds_until_ended() -> None:
    directory = directory_with(Delegation("alice", "bob"))
    found = eligibility_of(
        record(approversList=["alice"]), "bob", directory, CONFIG, NOW + timedelta(days=400)
    )
    assert found is not None and found.matched_by == "delegate-of:alice"


def test_another_tenant_or_a_delegator_who_may_not_decide_lets_nobody_in() -> None:
    other_tenant = directory_with(BOB_FOR_ALICE, tenant="globex")
    with pytest.raises(ForbiddenError):
        eligibility_of(record(approversList=["alice"]), "bob", other_tenant, CONFIG, NOW)
    with pytest.raises(ForbiddenError):
        eligibility_of(record(approversList=["carol"]), "bob", directory_with(BOB_FOR_ALICE), CONFIG, NOW)


def test_an_override_is_the_tenants_and_is_not_delegated() -> None:
    directory = directory_with(Delegation("lead", "bob"))
    with pytest.raises(ForbiddenError):
        eligibility_of(record(approversList=["alice"]), "bob", directory, CONFIG, NOW)


def test_bobs_own_eligibility_comes_first() -> None:
    found = eligibility_of(
        record(approversList=["alice", "bob"]), "bob", directory_with(BOB_FOR_ALICE), CONFIG, NOW
    )
    assert found is not None and found.matched_by == "list"


def test_alices_seat_counts_once_whoever_voted_first() -> None:
    directory = directory_with(BOB_FOR_ALICE)
    data = {"approversList": ["alice", "carol"], "requiredApprovals": 2}
    with pytest.raises(AlreadyVotedError):  # alice voted: bob cannot vote for her seat
        eligibility_of(record((vote("alice", "list"),), **data), "bob", directory, CONFIG, NOW)
    with pytest.raises(AlreadyVotedError):  # bob voted for her: alice cannot vote again
        eligibility_of(record((vote("bob", "delegate-of:alice"),), **data), "alice", directory, CONFIG, NOW)
    found = eligibility_of(
        record((vote("bob", "delegate-of:alice"),), **data), "carol", directory, CONFIG, NOW
    )
    assert found is not None and found.matched_by == "list"  # carol's own seat is free


def test_with_two_delegators_bob_takes_the_free_seat() -> None:
    directory = directory_with(BOB_FOR_ALICE, Delegation("carol", "bob"))
    data = {"approversList": ["alice", "carol"], "requiredApprovals": 2}
    found = eligibility_of(record((vote("alice", "list"),), **data), "bob", directory, CONFIG, NOW)
    assert found is not None and found.matched_by == "delegate-of:carol"


def test_the_requesters_delegate_is_refused_for_the_requesters_seat() -> None:
    data = {"approversList": ["alice"], "requestedBy": "alice", "allowSelfApproval": True}
    with pytest.raises(SelfApprovalRefusedError):
        eligibility_of(record(**data), "bob", directory_with(BOB_FOR_ALICE), CONFIG, NOW)


def test_a_tenant_that_allows_self_approval_lets_the_requester_vote_even_as_an_override() -> None:
    from waitgate.approval.separation_of_duties import TenantSettings

    directory = directory_with(BOB_FOR_ALICE)
    own = record(approversList=["alice"], requestedBy="lead")
    # By default the override principal who requested it is refused, and the interrupt cannot relax that
    for data in ({}, {"allowSelfApproval": True}):
        with pytest.raises(SelfApprovalRefusedError):
            eligibility_of(
                record(approversList=["alice"], requestedBy="lead", **data), "lead", directory, CONFIG, NOW
            )
    # When the tenant allows it, Then the requester votes, override principals included
    directory.set_tenant_settings("acme", TenantSettings(allow_self_approval=True))
    found = eligibility_of(own, "lead", directory, CONFIG, NOW)
    assert found is not None and found.matched_by == "override"
    # But a delegate for the requester's seat is still refused
    with pytest.raises(SelfApprovalRefusedError):
        eligibility_of(record(approversList=["alice"], requestedBy="alice"), "bob", directory, CONFIG, NOW)
    # And another tenant's setting lets nobody in
    directory.set_tenant_settings("acme", TenantSettings())
    directory.set_tenant_settings("globex", TenantSettings(allow_self_approval=True))
    with pytest.raises(SelfApprovalRefusedError):
        eligibility_of(own, "lead", directory, CONFIG, NOW)


def test_the_tenant_settings_are_read_only_for_the_requesters_vote() -> None:
    directory = directory_with()
    eligibility_of(record(approversList=["alice"], requestedBy="carol"), "alice", directory, CONFIG, NOW)
    assert directory.reads == 0  # alice is listed: no membership, delegation nor settings read
