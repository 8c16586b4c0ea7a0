"""Every hop's fault on the local stack (docs/durability.md, "The invariant: nothing hangs"): for each,
the fault injected (local/patches/faults.py, switched per test through the state directory's `faults`
file, and seen in its `faults.jsonl`), and the run still ends as the invariant says — resumed once
with its one resolution, failed by name, or parked for an operator who re-drives it — healed by the
hop that stands behind the lost one (the outbox, the reconciler). One stack for all of them, of its
own (`reconciling_stack`, shared with test_reconciler_e2e.py, which needs the same setting): its
reconciler passes every second (WAITGATE_RECONCILE_SECONDS=1, the grace too), so a heal takes
seconds; the last test restarts it while runs are in flight."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

from local.patches.fault_log import FaultLog
from tests.e2e.conftest import OWN_STACKS, REFUSED_LINE, LocalStackHandle, run_local
from tests.e2e.test_durability_e2e import ended
from tests.e2e.test_escalation_e2e import approval
from tests.e2e.test_kinds_e2e import SampleRun, wait_for

pytestmark = [pytest.mark.e2e, OWN_STACKS]

CUSTOM = {"kind": "custom", "key": "label", "data": {"customKind": "acme.label"}}


@pytest.fixture
def stack(reconciling_stack: LocalStackHandle) -> Iterator[LocalStackHandle]:
    """The reconciling stack (tests/e2e/conftest.py) with no faults switched on; afterwards none again,
    and no call of the stack while the test ran that AWS would refuse."""
    yield from _without_faults(reconciling_stack)


@pytest.fixture
def patient_stack(local_stack: LocalStackHandle) -> Iterator[LocalStackHandle]:
    """The worker's stack, whose reconciler waits its usual grace (10 s) before it heals: for a test of
    the outbox, which the reconciling stack's 1 s grace lets the reconciler beat on a busy machine."""
    yield from _without_faults(local_stack)


def _without_faults(faulty_stack: LocalStackHandle) -> Iterator[LocalStackHandle]:
    switch_faults(faulty_stack, "")
    seen = len(faulty_stack.output)
    yield faulty_stack
    switch_faults(faulty_stack, "")
    refused = [line.strip() for line in faulty_stack.output[seen:] if REFUSED_LINE in line]
    assert not refused, refused


def switch_faults(stack: LocalStackHandle, spec: str) -> None:
    """The stack's faults from now on (its next AWS call reads the file again)."""
    partial = stack.state_dir / "faults.partial"
    partial.write_text(spec + "\n", encoding="utf-8")
    partial.replace(stack.state_dir / "faults")


def struck(stack: LocalStackHandle, hop: str, run_id: str | None = None) -> list[dict[str, Any]]:
    """The faults of `hop` that struck (of the run, where the hop names it)."""
    entries = FaultLog.in_state_dir(stack.state_dir).entries()
    return [e for e in entries if e["hop"] == hop and (run_id is None or e.get("runId") == run_id)]


def debug_payloads(run: SampleRun, event_type: str) -> list[dict[str, Any]]:
    return [event["payload"] for event in run.events("debug") if event["type"] == event_type]


def heals(run: SampleRun) -> list[str]:
    return [str(payload["heal"]) for payload in debug_payloads(run, "interrupt.reconciled")]


def resumed_once(run: SampleRun, value: Any) -> None:
    """The run SUCCEEDED with `value` as its output and holds one resolution."""
    assert run.output() == value
    assert run.types("updates").count("interrupt.resolved") == 1


def test_a_resolver_killed_after_its_commit_is_delivered_by_the_outbox(
    patient_stack: LocalStackHandle,
) -> None:
    # Given a waiting run, and resolvers that die right after their commit (a stack whose reconciler
    # waits its usual grace: the outbox's delivery is what this test is about)
    stack = patient_stack
    run = SampleRun(stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    kills = len(struck(stack, "kill_after_commit"))
    switch_faults(stack, "kill_after_commit:1")
    # When alice answers: the commit lands, the handler dies before SendTaskSuccess (API Gateway: 500)
    status, _ = run.resolve("Interrupt", {"label": "killed"})
    assert status == 500
    assert len(struck(stack, "kill_after_commit")) == kills + 1
    # Then the outbox (the commit's stream record) delivers it: the run resumes once with her answer
    resumed_once(run, {"label": "killed"})
    assert [p["via"] for p in debug_payloads(run, "interrupt.delivered")] == ["outbox"]
    # And her retry (no Idempotency-Key) learns it was resolved
    assert run.resolve("Interrupt", {"label": "again"})[0] == 409


def test_a_kill_whose_stream_record_is_lost_too_is_redelivered_by_the_reconciler(
    stack: LocalStackHandle,
) -> None:
    # Given a waiting run; resolvers die after their commit and the stream loses every record
    run = SampleRun(stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    switch_faults(stack, "kill_after_commit:1,stream_record:1")
    # When alice answers
    assert run.resolve("Interrupt", {"label": "lost twice"})[0] == 500
    # Then nothing but the reconciler is left, and it delivers the committed answer once
    resumed_once(run, {"label": "lost twice"})
    assert struck(stack, "stream_record", run.run_id)
    assert heals(run) == ["redelivered"]


def test_send_task_success_throttled_for_seconds_still_resumes_the_run_once(stack: LocalStackHandle) -> None:
    # Given a waiting run, and every SendTaskSuccess throttled for the next 10 s (the outbox's ten
    # retries locally span about 7 s: it gives up within the window, and the reconciler is left)
    run = SampleRun(stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    switch_faults(stack, "send_task_success:1@10s")
    # When alice answers, Then the answer is taken (200) though it could not be delivered yet
    assert run.resolve("Interrupt", {"label": "throttled"})[0] == 200
    # And the run resumes once the throttling ends, with her answer, delivered once
    resumed_once(run, {"label": "throttled"})
    assert len(struck(stack, "sfn.SendTaskSuccess")) >= 2  # the inline send and the outbox's at least
    delivered = debug_payloads(run, "interrupt.delivered")
    assert len(delivered) == 1 and delivered[0]["via"] in ("outbox", "reconciler"), delivered


def test_a_lost_deadline_invocation_is_expired_by_the_reconciler(stack: LocalStackHandle) -> None:
    # Given every due schedule's invocation lost, and an approval with a 1.5 s deadline
    switch_faults(stack, "schedule:1")
    run = SampleRun(stack, "interrupt", {"interrupt": approval("lost-deadline", timeoutMs=1500)})
    # When its deadline passes and the expiry is never invoked
    wait_for(lambda: struck(stack, "schedule", run.run_id), what="the deadline's invocation dropped")
    # Then the reconciler expires it: the run fails by name
    execution = ended(stack, run)
    assert (execution["status"], execution.get("error")) == ("FAILED", "InterruptTimedOut")
    assert heals(run) == ["expired"]
    assert run.types("updates").count("interrupt.expired") == 1


def test_an_answer_the_engine_refuses_is_parked_and_an_operator_redrives_it(stack: LocalStackHandle) -> None:
    # Given a waiting run, and Step Functions refusing every answer (InvalidOutput)
    run = SampleRun(stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    switch_faults(stack, "send_task_success:1=InvalidOutput")
    # When alice answers, Then her answer is recorded but parked: nothing retries it on its own
    assert run.resolve("Interrupt", {"label": "refused"})[0] == 200

    def parked() -> dict[str, Any] | None:
        listed = run_local(["deliveries", "list", "--json"], stack.environment)
        found = [json.loads(line) for line in listed.stdout.splitlines() if run.run_id in line]
        return found[0] if found else None

    entry = wait_for(parked, what="the refused delivery parked")
    assert (entry["outcome"], entry["status"]) == ("refused", "resolved")
    # When the engine takes answers again and the operator re-drives it
    switch_faults(stack, "")
    redriven = run_local(["deliveries", "redrive", "--interrupt", entry["interruptId"]], stack.environment)
    assert redriven.returncode == 0 and redriven.stdout.strip().endswith(": delivered"), redriven
    # Then the run resumes once with her answer, and nothing is parked any more
    resumed_once(run, {"label": "refused"})
    assert parked() is None


def test_a_lost_notice_is_announced_by_the_reconciler(stack: LocalStackHandle) -> None:
    # Given every notice lost (the topic's Publish fails), and an approval for alice
    switch_faults(stack, "notice:1")
    run = SampleRun(stack, "interrupt", {"interrupt": approval("unannounced")})
    wait_for(lambda: struck(stack, "notice", run.run_id), what="alice's notice lost")
    run.suspended_at("Interrupt")
    # When the topic takes notices again
    switch_faults(stack, "")

    # Then the reconciler tells alice (once) and her link resolves the run
    def link() -> str | None:
        listed = run_local(["dev-inbox", "--run-id", run.run_id, "--link"], stack.environment)
        return listed.stdout.strip() or None

    path = str(wait_for(link, what="alice's notice, told by the reconciler")).removeprefix(stack.api_url)
    assert heals(run) == ["notified"]
    decision = {"action": "accept", "decidedAt": "2026-12-03T10:00:00Z"}
    answer = stack.http.post(path, {"resumeValue": decision})
    assert answer.status == 200, answer.body
    assert run.output()["action"] == "accept"
    assert run.types("updates").count("interrupt.resolved") == 1


def test_runs_in_flight_across_a_restart_each_end_as_the_invariant_says(stack: LocalStackHandle) -> None:
    # Given, as the stack stops: a run whose answer is committed but not delivered (every
    # SendTaskSuccess throttled), one whose deadline passes while the stack is down, one waiting
    undelivered = SampleRun(stack, "interrupt", {"interrupt": CUSTOM})
    late = SampleRun(stack, "interrupt", {"interrupt": approval("across-restart", timeoutMs=3000)})
    waiting = SampleRun(stack, "interrupt", {"interrupt": CUSTOM})
    for run in (undelivered, late, waiting):
        run.suspended_at("Interrupt")
    switch_faults(stack, "send_task_success:1")
    assert undelivered.resolve("Interrupt", {"label": "in flight"})[0] == 200
    wait_for(lambda: struck(stack, "sfn.SendTaskSuccess"), what="the inline send throttled")
    # When the stack restarts on the same state directory and ports (the faults switched off meanwhile)
    late_before = stack.sfn.describe_execution(executionArn=late.execution_arn)
    stack.restart(while_stopped=lambda: (stack.state_dir / "faults").unlink())
    # Then the committed answer reaches the run once (its execution, started again, asks the key again
    # and is answered with it: that is its delivery, and nothing is left to send to the old task)
    resumed_once(undelivered, {"label": "in flight"})
    assert [p["via"] for p in debug_payloads(undelivered, "interrupt.delivered")] == ["replay"]
    parked = run_local(["deliveries", "list"], stack.environment)
    assert parked.returncode == 0 and undelivered.run_id not in parked.stdout, parked.stdout
    # And the late deadline fails its run by name (on a busy machine it may pass before the stack
    # stops: an ended execution is not kept across a restart, so its end is read before, or its expiry)
    executions = [late_before] if late_before["status"] != "RUNNING" else []
    # (ended between that look and the stop: its expiry below is what is left to read)
    with contextlib.suppress(stack.sfn.exceptions.ExecutionDoesNotExist):
        executions = executions or [ended(stack, late)]
    for execution in executions:
        assert (execution["status"], execution.get("error")) == ("FAILED", "InterruptTimedOut")
    assert late.types("updates").count("interrupt.expired") == 1
    # And the waiting run is still answerable, once
    assert waiting.resolve("Interrupt", {"label": "after"})[0] == 200
    resumed_once(waiting, {"label": "after"})


def test_a_run_whose_end_event_is_lost_has_its_interrupt_cancelled_by_the_reconciler(
    stack: LocalStackHandle,
) -> None:
    # Given a waiting run, and every run's end event lost on its way to the run lifecycle
    run = SampleRun(stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    switch_faults(stack, "end_event:1")
    # When its execution is stopped: the lifecycle never hears of it
    stack.sfn.stop_execution(executionArn=run.execution_arn, error="Stopped", cause="e2e")
    wait_for(
        lambda: [e for e in struck(stack, "end_event") if e.get("execution") == run.run_id],
        what="the run's end event dropped",
    )

    # Then the reconciler asks Step Functions, finds it ABORTED and cancels the interrupt
    def cancelled() -> dict[str, Any] | None:
        status, body = run.snapshot()
        return body if status == 200 and body.get("status") == "cancelled" else None

    wait_for(cancelled, what="the run cancelled by the reconciler")
    assert heals(run) == ["cancelled"]
    assert debug_payloads(run, "interrupt.reconciled")[0]["executionStatus"] == "ABORTED"
    assert run.types("updates").count("interrupt.cancelled") == 1
    # And a late answer is refused: nothing goes on with it
    assert run.resolve("Interrupt", {"label": "late"})[0] == 409
