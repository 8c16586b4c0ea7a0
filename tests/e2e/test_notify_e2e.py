"""Who is asked, for any kind (issue 30, point 4): a clarification whose Task input names alice
(`notify`) reaches her `waitgate dev-inbox` with a personal link; only she may answer it; she answers
by her link and the run resumes with her answer. One that names nobody: `dev-inbox --run-id` says
so, and how to open it (a minted link, or the inbox)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_durability_e2e import ended
from tests.e2e.test_escalation_e2e import inbox
from tests.e2e.test_kinds_e2e import SampleRun, token_for, wait_for

pytestmark = pytest.mark.e2e

QUESTION: dict[str, Any] = {
    "kind": "clarification",
    "key": "region",
    "data": {"questions": [{"id": "region", "question": "Which region?", "schema": {"enum": ["eu-west-1"]}}]},
}
ANSWER = {"answers": {"region": "eu-west-1"}}


def pending_of_run(stack: LocalStackHandle, who: str, run_id: str) -> list[dict[str, Any]]:
    """Every page of `who`'s pending interrupts of the run: the runId filter applies to the items a
    page examined, so on a stack many tests share a page may hold none and say there is more
    (docs/inbox.md)."""
    token, items, cursor = token_for(stack, who, "approvals:respond"), [], ""
    while True:
        page = stack.http.get(f"/interrupts?status=pending&runId={run_id}{cursor}", token=token).json()
        items += page["items"]
        if not page.get("next"):
            return items
        cursor = f"&cursor={page['next']}"


def test_a_clarification_with_notify_reaches_alice_who_answers_by_her_link(
    local_stack: LocalStackHandle,
) -> None:
    # Given a run of the generic workflow whose Task input asks alice
    run = SampleRun(local_stack, "interrupt", {"interrupt": QUESTION, "notify": {"principals": ["alice"]}})
    # When it waits, Then alice's dev-inbox lists a notice of it, with her own link
    (notice,) = wait_for(lambda: inbox(local_stack, "alice", run) or None)
    assert (notice["kind"], notice["subject"]) == ("clarification", "Answer needed: Which region?")
    token = str(notice["link"]).rsplit("/interrupts/", 1)[1]
    # And nobody else may answer it, even with the scope to respond (fails closed: 403)
    bob = local_stack.http.post(
        f"/runs/{run.run_id}/interrupts/Interrupt",
        {"resumeValue": ANSWER},
        token=token_for(local_stack, "bob", "approvals:respond"),
    )
    assert (bob.status, bob.json()["code"]) == (403, "forbidden")
    # And it is in alice's inbox alone (the index's summary holds who is asked)
    listed = {who: pending_of_run(local_stack, who, run.run_id) for who in ("alice", "bob")}
    assert [(item["kind"], item["matchedBy"]) for item in listed["alice"]] == [("clarification", "list")]
    assert listed["bob"] == []
    # When alice answers by her link, Then it is resolved, decided by her
    answered = local_stack.http.post(f"/interrupts/{token}", {"resumeValue": ANSWER})
    assert answered.status == 200, answered.body
    # And the run resumes with her answer as its output
    execution = ended(local_stack, run)
    assert execution["status"] == "SUCCEEDED"
    assert json.loads(execution["output"]) == ANSWER


def test_dev_inbox_says_when_an_interrupt_names_nobody_and_how_to_open_it(
    local_stack: LocalStackHandle,
) -> None:
    # Given a clarification that names nobody, waiting
    run = SampleRun(local_stack, "interrupt", {"interrupt": QUESTION})
    run.suspended_at("Interrupt")
    # When its notices are asked for, Then dev-inbox says none will come, and how to open it
    listed = run_local(["dev-inbox", "--run-id", run.run_id], local_stack.environment)
    assert listed.returncode == 0, listed.stderr
    assert (
        f"run {run.run_id} waits at step Interrupt on an interrupt (clarification) that names nobody:"
        in listed.stdout
    )
    assert f"/runs/{run.run_id}/interrupts/Interrupt/tokens" in listed.stdout
    assert "/inbox" in listed.stdout and "notify" in listed.stdout


@pytest.mark.parametrize("machine", ["clarification", "custom"])
def test_the_samples_take_notify_from_their_input(local_stack: LocalStackHandle, machine: str) -> None:
    run = SampleRun(local_stack, machine, {"notify": {"principals": ["alice"]}})
    (notice,) = wait_for(lambda: inbox(local_stack, "alice", run) or None)
    assert notice["kind"] == machine
