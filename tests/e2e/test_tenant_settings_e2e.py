"""A tenant's own setting on the local stack (issue #33 point 2): by default the requester's own vote
is refused on the run API; after `waitgate directory settings --allow-self-approval on` for their
tenant (a tenant of its own: the setting is tenant-wide) the requester decides their own request, even
as the override principal; another tenant is not concerned; the change is an entry of the ledger."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_quorum_e2e import ACCEPT, SCOPE, approval, directory
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e
OVERRIDE = "oncall-lead"  # the local stack's override principal (.waitgate/local.json)


class TenantRun:
    """One execution of the generic interrupt workflow in `tenant`, voted on through the run API."""

    def __init__(self, stack: LocalStackHandle, tenant: str, interrupt: dict[str, Any]) -> None:
        self.stack, self.tenant, self.run_id = stack, tenant, f"run-{uuid.uuid4().hex}"
        stack.sfn.start_execution(
            stateMachineArn=stack.state_machines["interrupt"],
            name=self.run_id,
            input=json.dumps({"tenantId": tenant, "interrupt": interrupt}),
        )
        wait_for(lambda: self.snapshot().get("status") == "waiting-approval", what="the run's approval")

    def snapshot(self) -> dict[str, Any]:
        answer = self.stack.http.get(
            f"/runs/{self.run_id}", token=self.stack.jwt("reader", "runs:read", tenant=self.tenant)
        )
        return dict(answer.json()) if answer.status == 200 else {}

    def vote(self, sub: str) -> tuple[int, dict[str, Any]]:
        answer = self.stack.http.post(
            f"/runs/{self.run_id}/interrupts/Interrupt",
            {"resumeValue": ACCEPT},
            token=self.stack.jwt(sub, SCOPE, tenant=self.tenant),
        )
        return answer.status, dict(answer.json())


def test_a_tenant_that_allows_self_approval_lets_its_requesters_decide(local_stack: LocalStackHandle) -> None:
    tenant, other = f"t{uuid.uuid4().hex[:10]}", f"t{uuid.uuid4().hex[:10]}"
    carol = f"carol-{uuid.uuid4().hex[:8]}"
    own = approval(approversList=[carol], requestedBy=carol)
    # Given carol's own request in her tenant, which keeps the default
    assert directory(local_stack, "settings", "--tenant", tenant).split() == ["allowSelfApproval", "off"]
    first = TenantRun(local_stack, tenant, own)
    # When she votes, Then 403 self_approval_refused, as problem+json
    status, problem = first.vote(carol)
    assert (status, problem["code"]) == (403, "self_approval_refused")
    # When her tenant allows self-approval
    directory(local_stack, "settings", "--tenant", tenant, "--allow-self-approval", "on")
    assert directory(local_stack, "settings", "--tenant", tenant).split() == ["allowSelfApproval", "on"]
    # Then she decides her own request, and the override principal its own
    assert first.vote(carol)[0] == 200
    by_override = TenantRun(local_stack, tenant, approval(approversList=[carol], requestedBy=OVERRIDE))
    assert by_override.vote(OVERRIDE)[0] == 200
    # And in another tenant the requester is still refused
    elsewhere = TenantRun(local_stack, other, own)
    assert elsewhere.vote(carol)[1]["code"] == "self_approval_refused"
    # And the change is an entry of the tenant's ledger
    wait_for(
        lambda: "setting.changed" in _ledger_types(local_stack, tenant), what="the setting's ledger entry"
    )


def _ledger_types(stack: LocalStackHandle, tenant: str) -> list[str]:
    done = run_local(["ledger", "export", "--tenant", tenant], stack.environment)
    if done.returncode != 0:  # no signed head yet: the stream's reader has not appended anything
        return []
    return [json.loads(line).get("type", "") for line in done.stdout.splitlines() if line.strip()]
