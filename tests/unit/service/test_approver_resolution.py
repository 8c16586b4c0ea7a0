"""eligibility_of: which directory reads a vote costs, and what it records."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

import pytest

from tests.unit.service.gate_records import record
from waitgate.approval import Memberships
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.errors import ForbiddenError
from waitgate.service._eligibility import eligibility_of

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)


class RecordingDirectory:
    """A directory of fixed memberships that remembers every lookup it was asked for."""

    def __init__(self, groups: dict[str, set[str]], roles: dict[str, set[str]]) -> None:
        self.groups, self.roles = groups, roles
        self.lookups: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = []

    def memberships(
        self, tenant_id: str, principal: str, groups: Sequence[str], roles: Sequence[str]
    ) -> Memberships:
        self.lookups.append((tenant_id, principal, tuple(groups), tuple(roles)))
        return Memberships(
            groups=frozenset(g for g in groups if principal in self.groups.get(g, set())),
            roles=frozenset(r for r in roles if principal in self.roles.get(r, set())),
        )

    def members(self, tenant_id: str, kind: Literal["group", "role"], ref: str) -> tuple[str, ...]:
        return tuple(sorted((self.groups if kind == "group" else self.roles).get(ref, set())))

    def delegations_to(self, tenant_id: str, delegate: str) -> tuple[Any, ...]:
        return ()

    def tenant_settings(self, tenant_id: str) -> Any:
        from waitgate.approval.separation_of_duties import TenantSettings

        return TenantSettings()


def test_listed_principal_costs_no_directory_read() -> None:
    # Given an approval listing ann and naming a group
    directory = RecordingDirectory({"ops": {"ann"}}, {})
    # When ann's eligibility is resolved
    found = eligibility_of(
        record(approversList=["ann"], approverGroupRefs=["ops"]), "ann", directory, ApprovalConfig(), NOW
    )
    # Then the list matched and the directory was not asked
    assert found is not None and (found.matched_by, found.resolved_at) == ("list", "2026-11-30T10:00:00.000Z")
    assert directory.lookups == []


def test_one_lookup_for_the_payload_refs_in_the_runs_tenant() -> None:
    # Given an approval naming two groups and a role
    directory = RecordingDirectory({}, {"sre": {"bob"}})
    data = {"approverGroupRefs": ["ops", "dev"], "approverRoleRefs": ["sre"]}
    # When bob's eligibility is resolved
    found = eligibility_of(record(**data), "bob", directory, ApprovalConfig(), NOW)
    # Then one lookup, for exactly those refs in the run's tenant, and the role matched
    assert directory.lookups == [("acme", "bob", ("ops", "dev"), ("sre",))]
    assert found is not None and found.matched_by == "role:sre"


def test_unadvertised_kinds_are_never_looked_up() -> None:
    # Given a host advertising principal and role only
    directory = RecordingDirectory({"ops": {"bob"}}, {"sre": set()})
    config = ApprovalConfig(ref_kinds=frozenset({"principal", "role"}))
    # When bob, a member of the group the payload names, votes
    with pytest.raises(ForbiddenError, match="not an eligible approver"):
        eligibility_of(
            record(approverGroupRefs=["ops"], approverRoleRefs=["sre"]), "bob", directory, config, NOW
        )
    # Then only the role was looked up, and the group membership did not count
    assert directory.lookups == [("acme", "bob", (), ("sre",))]


def test_override_principal_is_eligible_and_other_kinds_have_no_approvers() -> None:
    directory = RecordingDirectory({}, {})
    config = ApprovalConfig(override_principals=frozenset({"lead"}))
    found = eligibility_of(record(approversList=["ann"]), "lead", directory, config, NOW)
    assert found is not None and found.matched_by == "override"
    assert eligibility_of(record(kind="custom", customKind="x"), "anyone", directory, config, NOW) is None
