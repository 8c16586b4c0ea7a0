"""Delegation on the local stack (issue #33 point 3, "How we will know"): bob, alice's delegate, decides
while the delegation holds (his inbox lists her approval), for her seat once, and not after it ended;
granting and ending it are entries of the tenant's ledger."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_quorum_e2e import ACCEPT, SCOPE, Run, approval, directory, matched
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e


def at(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def delegate(stack: LocalStackHandle, delegator: str, to: str, lasting: timedelta) -> None:
    """`waitgate directory delegate` from `delegator` to `to`, until `lasting` from now."""
    directory(stack, "delegate", "--from", delegator, "--to", to, "--until", at(datetime.now(UTC) + lasting))


def inbox_match(stack: LocalStackHandle, principal: str, run_id: str) -> str | None:
    """The matchedBy of the run's item in the principal's inbox, None when it is not listed."""
    listed = stack.http.get("/interrupts?status=pending", token=stack.jwt(principal, SCOPE))
    assert listed.status == 200, listed.json()
    found = [item.get("matchedBy") for item in listed.json()["items"] if item["runId"] == run_id]
    return found[0] if found else None


def test_bob_decides_for_alice_while_it_holds_and_not_after(local_stack: LocalStackHandle) -> None:
    # Given alice delegating to bob for a day, and a 2-of-2 approval asking alice and carol
    alice, bob, carol = (f"{name}-{uuid.uuid4().hex[:8]}" for name in ("alice", "bob", "carol"))
    delegate(local_stack, alice, bob, timedelta(days=1))
    assert directory(local_stack, "delegations", "--to", bob).split()[0] == alice
    run = Run(local_stack, approval(requiredApprovals=2, approversList=[alice, carol]))
    # Then bob's inbox lists it, saying he decides for alice
    wait_for(lambda: inbox_match(local_stack, bob, run.run_id), what="bob's inbox")
    assert inbox_match(local_stack, bob, run.run_id) == f"delegate-of:{alice}"
    # When bob accepts for alice, then alice tries to vote too, then carol accepts
    for_alice = run.vote(bob, ACCEPT)
    alice_again = run.vote(alice, ACCEPT)
    second = run.vote(carol, ACCEPT)
    # Then bob's vote took alice's seat, which votes once; the decision says bob decided as her delegate
    assert (for_alice[0], for_alice[1]["status"]) == (202, "pending")
    assert (alice_again[0], alice_again[1]["code"]) == (409, "already_voted")
    assert second[0] == 200
    assert matched(run.output()["votes"]) == [
        (bob, "accept", f"delegate-of:{alice}"),
        (carol, "accept", "list"),
    ]

    # Given the delegation replaced by one ending a few seconds from now, and a new approval for alice
    delegate(local_stack, alice, bob, timedelta(seconds=2))
    later = Run(local_stack, approval(approversList=[alice]))
    # When it has ended (the directory says so), bob votes
    wait_for(
        lambda: directory(local_stack, "delegations", "--to", bob).split()[-1] == "ended", what="the end"
    )
    refused = later.vote(bob, ACCEPT)
    # Then he is refused as any non-approver, and alice still decides
    assert (refused[0], refused[1]["code"]) == (403, "forbidden")
    assert later.vote(alice, ACCEPT)[0] == 200
    assert matched(later.output()["votes"]) == [(alice, "accept", "list")]
    # And an ended delegation can be removed, once
    directory(local_stack, "undelegate", "--from", alice, "--to", bob)
    assert directory(local_stack, "delegations", "--to", bob) == ""
    # And granting and ending it are events the tenant's ledger appended, by the table stream's reader
    wait_for(lambda: ledgered(local_stack, alice, bob) == ["delegation.granted"] * 2 + ["delegation.ended"])


def ledgered(stack: LocalStackHandle, delegator: str, delegate: str) -> list[str]:
    """The types of the default tenant's ledger entries about this delegation, as exported."""
    done = run_local(["ledger", "export", "--tenant", "default"], stack.environment)
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in done.stdout.splitlines()]
    about = {"delegator": delegator, "delegate": delegate}
    return [
        entry["type"]
        for entry in entries
        if str(entry.get("type", "")).startswith("delegation.")
        and {key: (entry.get("detail") or {}).get(key) for key in about} == about
    ]
