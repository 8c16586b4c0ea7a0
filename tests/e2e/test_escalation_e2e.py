"""Escalation on the local stack with second-scale policies (issue 17, "How we will know"): carol is
refused before the escalation step and accepted after it; a reminder is a second notice for alice in
`waitgate dev-inbox`; a default reject at the deadline ends the run SUCCEEDED; without one the task
still fails with InterruptTimedOut; a resolve racing the deadline yields exactly one interrupt.resolved.
The local stack fires the schedules itself (local/standins/schedule_pump.py); the tests wait for what the log
or the inbox shows, never for a time."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_durability_e2e import ended
from tests.e2e.test_kinds_e2e import SampleRun, token_for, wait_for

pytestmark = pytest.mark.e2e

SCOPE = "approvals:respond"
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
REJECT_AT_DEADLINE = {"resolveWith": {"action": "reject", "feedback": "No decision in time."}}


def approval(key: str, **extra: Any) -> dict[str, Any]:
    data = {
        "artifactId": "r42",
        "artifactType": "release",
        "title": f"Ship {key}?",
        "actions": ["accept", "reject"],
    }
    return {"kind": "approval", "key": key, "data": {**data, "approversList": ["alice"]}, **extra}


def vote(stack: LocalStackHandle, run: SampleRun, sub: str) -> tuple[int, Any]:
    answer = stack.http.post(
        f"/runs/{run.run_id}/interrupts/Interrupt",
        {"resumeValue": ACCEPT},
        token=token_for(stack, sub, SCOPE),
    )
    return answer.status, answer.json()


def inbox(stack: LocalStackHandle, recipient: str, run: SampleRun) -> list[dict[str, str]]:
    listed = run_local(
        ["dev-inbox", "--recipient", recipient, "--run-id", run.run_id, "--json"], stack.environment
    )
    if listed.returncode == 1 and "no notification" in listed.stderr:
        return []  # a --json lookup that finds nothing yet says so and exits 1
    assert listed.returncode == 0, listed.stderr
    return [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]


def logged(run: SampleRun, event_type: str, mode: str = "updates") -> bool | None:
    """Whether the run's log holds the event yet (None also while the run is not recorded yet)."""
    answer = run.stack.http.get(
        f"/runs/{run.run_id}/events?mode={mode}&limit=100", token=token_for(run.stack, "reader", "runs:read")
    )
    if answer.status == 404:
        return None
    assert answer.status == 200, answer.body
    return True if event_type in [event["type"] for event in answer.json()["events"]] else None


def first_answer(stack: LocalStackHandle, run: SampleRun, sub: str) -> tuple[int, Any]:
    """`sub`'s vote, sent again while the run is not recorded yet (404): the first answer about it."""
    return wait_for(lambda: None if (answer := vote(stack, run, sub))[0] == 404 else answer)


def test_carol_is_refused_before_the_escalation_step_and_accepted_after_it(
    local_stack: LocalStackHandle,
) -> None:
    # Given an approval of alice's that adds carol after 4 s
    token_for(local_stack, "carol", SCOPE)  # minted before the clock starts
    escalation = {"steps": [{"afterMs": 4000, "addApprovers": {"approversList": ["carol"]}}]}
    run = SampleRun(local_stack, "interrupt", {"interrupt": approval("carol-step"), "escalation": escalation})
    # When carol votes as soon as the interrupt is there (long before the step), Then 403
    status, problem = first_answer(local_stack, run, "carol")
    assert (status, problem["code"]) == (403, "forbidden")
    # When the step has fired (the log shows interrupt.escalated with carol added)
    wait_for(lambda: logged(run, "interrupt.escalated"))
    (escalated,) = [e for e in run.events("updates") if e["type"] == "interrupt.escalated"]
    assert escalated["payload"]["added"] == {"approversList": ["carol"]}
    # Then carol's vote decides, matched by the step
    assert vote(local_stack, run, "carol")[0] == 200
    output = run.output()
    assert [(v["principal"], v["eligibility"]["matchedBy"]) for v in output["votes"]] == [
        ("carol", "escalation:0")
    ]
    run.assert_events_valid()


def test_a_reminder_is_a_second_notice_for_alice(local_stack: LocalStackHandle) -> None:
    # Given an approval of alice's with a reminder after 1 s and a deadline in 10 minutes
    run = SampleRun(
        local_stack,
        "interrupt",
        {
            "interrupt": approval("reminded", timeoutMs=600_000),
            "escalation": {"steps": [{"afterMs": 1000, "remind": True}]},
        },
    )
    interrupt_id = run.suspended_at("Interrupt")["pendingInterrupt"]["interruptId"]
    assert f"expire-{interrupt_id}" in schedules_of(local_stack, interrupt_id)
    # When the step fires, Then `waitgate dev-inbox` lists a second notice for alice, with a new link
    notices = wait_for(lambda: found if len(found := inbox(local_stack, "alice", run)) >= 2 else None)
    first, second = notices
    assert second["subject"].startswith("Reminder: Approval needed: Ship reminded?")
    assert second["link"] != first["link"] and second["link"].startswith("http")
    assert "interrupt.reminded" in run.types("debug") and "interrupt.reminded" not in run.types("updates")
    # And either link still decides
    assert (
        local_stack.http.post(
            f"/interrupts/{first['link'].rsplit('/', 1)[1]}", {"resumeValue": ACCEPT}
        ).status
        == 200
    )
    assert run.output()["action"] == "accept"
    # And the deadline's schedule, which will never be needed, is deleted
    wait_for(lambda: True if not schedules_of(local_stack, interrupt_id) else None)


def schedules_of(stack: LocalStackHandle, interrupt_id: str) -> list[str]:
    scheduler = stack.client("scheduler")
    names = [s["Name"] for s in scheduler.list_schedules()["Schedules"]]
    return sorted(name for name in names if name.endswith(interrupt_id))


def test_the_deadline_rejects_and_the_run_succeeds(local_stack: LocalStackHandle) -> None:
    # Given an approval that rejects at its 1.5 s deadline, and nobody answers
    interrupt = approval("default-reject", timeoutMs=1500)
    run = SampleRun(
        local_stack, "interrupt", {"interrupt": interrupt, "escalation": {"onDeadline": REJECT_AT_DEADLINE}}
    )
    # Then the run ends SUCCEEDED with that reject, decided by waitgate at the deadline
    output = run.output()
    assert (output["action"], output["feedback"]) == ("reject", "No decision in time.")
    assert (output["decidedBy"], output["votes"]) == ("waitgate:deadline", [])
    assert "decidedAt" in output
    types = run.types("updates")
    assert types.count("interrupt.resolved") == 1 and "interrupt.expired" not in types
    run.assert_events_valid()


def test_without_on_deadline_the_task_still_fails_with_interrupt_timed_out(
    local_stack: LocalStackHandle,
) -> None:
    # Given an approval with a reminder but no onDeadline, and a 1.5 s deadline
    escalation = {"steps": [{"afterMs": 500, "remind": True}]}
    run = SampleRun(
        local_stack, "interrupt", {"interrupt": approval("fails", timeoutMs=1500), "escalation": escalation}
    )
    # Then the execution fails with InterruptTimedOut, as it always did
    execution = ended(local_stack, run)
    assert (execution["status"], execution.get("error")) == ("FAILED", "InterruptTimedOut")
    assert "interrupt.expired" in run.types("updates")


def test_an_invalid_policy_fails_the_task_naming_the_member(local_stack: LocalStackHandle) -> None:
    escalation = {"onDeadline": {"resolveWith": {"action": "approve"}}}
    run = SampleRun(
        local_stack, "interrupt", {"interrupt": approval("bad", timeoutMs=60_000), "escalation": escalation}
    )
    execution = ended(local_stack, run)
    # (moto drops SendTaskFailure's cause; the member it names is tested on the fakes and on moto)
    assert (execution["status"], execution.get("error")) == ("FAILED", "InterruptPayloadInvalid")


RACES = 4


def test_a_resolve_racing_the_deadline_yields_one_interrupt_resolved(local_stack: LocalStackHandle) -> None:
    # Given approvals that reject at a 2 s deadline, each reminding alice 1 s before it
    escalation = {"steps": [{"afterMs": 1000, "remind": True}], "onDeadline": REJECT_AT_DEADLINE}
    runs, outcomes = [], {}
    for n in range(RACES):
        run = SampleRun(
            local_stack,
            "interrupt",
            {"interrupt": approval(f"race-{n}", timeoutMs=2000), "escalation": escalation},
        )
        runs.append(run)
        # When alice answers as soon as she is reminded (the deadline is 0 to 1 s away then)
        wait_for(
            lambda run=run: logged(run, "interrupt.reminded", "debug") or logged(run, "interrupt.resolved")
        )
        status, _ = vote(local_stack, run, "alice")
        assert status in (200, 409, 410)
        outcomes[run.run_id] = status
    for run in runs:
        # Then exactly one interrupt.resolved: alice's when she got 200, the deadline's otherwise
        output = run.output()
        assert run.types("updates").count("interrupt.resolved") == 1
        winner = "alice" if outcomes[run.run_id] == 200 else "waitgate:deadline"
        assert (output["decidedBy"], output["action"]) == (
            winner,
            "accept" if winner == "alice" else "reject",
        )
    print(f"deadline races: alice won {list(outcomes.values()).count(200)} of {RACES}")
