"""Delegation shown in Debian's chromium (issue #33 point 3): bob, alice's delegate, opens a link
minted for him and the page says he decides for alice; alice's own link says nothing of the kind;
bob's signed-in inbox lists the approval with what it would do and that he decides for alice. Each
page is checked with axe-core."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.page.person import Person, wait_until
from tests.e2e.page.samples import TITLE, approval
from tests.e2e.page.test_inbox_browser import sign_in, start

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

TRANSFER = {"name": "transfer", "args": {"amount": 100, "to": "acct-2"}, "target": "acct-1"}


def test_bobs_link_and_inbox_say_he_decides_for_alice(local_stack: LocalStackHandle, person: Person) -> None:
    tenant = f"d{uuid.uuid4().hex[:8]}"
    delegated = run_local(
        ["directory", "delegate", "--tenant", tenant, "--from", "alice", "--to", "bob"],
        local_stack.environment,
    )
    assert delegated.returncode == 0, delegated.stderr
    # Given an approval of a transfer that alice may decide, while she delegates to bob
    run_id = start(local_stack, tenant, approval(approversList=["alice"], action=TRANSFER))
    # When bob opens a link minted for him
    assert person.open(link_in(local_stack, tenant, run_id, "bob")) == TITLE
    # Then the page says he decides as bob, for alice
    terms = person.terms(".meta")
    assert (terms["You decide as"], terms["On behalf of"]) == (
        "bob",
        "You decide for alice, as their delegate.",
    )
    person.assert_accessible("a delegate's link")
    # And alice's own link says she decides as herself, for nobody else
    assert person.open(link_in(local_stack, tenant, run_id, "alice")) == TITLE
    assert "On behalf of" not in person.terms(".meta")
    # When bob signs in to his inbox, Then it lists the approval, what it would do, and for whom
    sign_in(person, local_stack, "bob", tenant)
    item = f'li[data-run-id="{run_id}"]'
    wait_until(lambda: person.has(item), "the approval in bob's inbox")
    assert 'What will be done: transfer on acct-1: {"amount":100,"to":"acct-2"}' in person.text(item)
    assert "You decide for alice." in person.text(item)
    person.assert_accessible("a delegate's inbox")


def link_in(stack: LocalStackHandle, tenant: str, run_id: str, sub: str) -> str:
    """A resolve link for `sub`, minted in `tenant` once the run waits at its Interrupt state."""
    reader, minter = (
        stack.jwt("reader", "runs:read", tenant=tenant),
        stack.jwt("bot", "interrupts:mint", tenant=tenant),
    )

    def waits() -> bool:
        answer = stack.http.get(f"/runs/{run_id}", token=reader)
        return answer.status == 200 and answer.json().get("pendingInterrupt", {}).get("nodeId") == "Interrupt"

    wait_until(waits, f"run {run_id} to wait")
    body = {"intent": "resolve", "sub": sub}
    minted = stack.http.post(f"/runs/{run_id}/interrupts/Interrupt/tokens", body, token=minter)
    assert minted.status == 201, minted.body
    return str(minted.json()["url"])
