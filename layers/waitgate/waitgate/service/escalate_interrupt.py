"""escalateInterrupt: one step of an interrupt's escalation policy comes due (its one-time schedule fires).

Commits the step on the interrupt (conditioned on the version read, so it fires once however often the
schedule does) with its events — `interrupt.escalated` with the approvers it added, who are eligible
from then on; `interrupt.reminded` in debug — then tells people: a reminding step everyone eligible who
has not voted (fresh links; the old ones stay valid until their own expiry), a step that only adds
approvers those it added. A step of an interrupt that ended, or past its deadline, or that fired
already, changes nothing (docs/escalation.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from waitgate.escalation import Step
from waitgate.escalation.escalation_steps import policy_of, step_change, step_state
from waitgate.ports import Clock, InterruptStore, Telemetry
from waitgate.run.clock import rfc3339
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import InterruptRecord, RunRef
from waitgate.run.telemetry import Correlation, Escalated, NoTelemetry
from waitgate.service.expire_interrupt import NotDueError
from waitgate.service.notify import NotificationDependencies, remind

StepResult = Literal["escalated", "already-fired", "ended", "unknown"]
_NOTHING_TO_DO: dict[str, StepResult] = {"fired": "already-fired", "ended": "ended", "unknown": "unknown"}


@dataclass(frozen=True)
class StepRequest:
    run: RunRef
    node_id: str
    interrupt_id: str
    step: int  # its index in the policy's `steps`


@dataclass(frozen=True)
class EscalationDependencies:
    store: InterruptStore
    clock: Clock
    notifications: NotificationDependencies | None = None  # None: the step is recorded, nobody is told
    telemetry: Telemetry = field(default_factory=NoTelemetry)


def escalate_interrupt(request: StepRequest, deps: EscalationDependencies) -> StepResult:
    run = request.run
    deps.telemetry.correlate(Correlation.at(run, request.node_id, request.interrupt_id))

    def attempt() -> tuple[StepResult, InterruptRecord | None, Step | None]:
        view = deps.store.load(request.run, request.node_id)
        record = view.interrupt
        step = policy_of(record).step(request.step) if record is not None else None
        now = rfc3339(deps.clock.now())
        state = step_state(view, request.interrupt_id, step, now)
        if state == "not-due":
            raise NotDueError("The escalation step is not due yet.")
        if state != "due":
            return _NOTHING_TO_DO[state], None, None
        assert record is not None and step is not None
        change = step_change(view, record, step, now)
        deps.store.commit(change)
        return "escalated", change.interrupt, step

    result, fired, step = retry_on_conflict(attempt, "interrupt")
    if fired is not None and step is not None:
        deps.telemetry.record(
            Escalated(fired.kind, "reminded" if step.remind else "approvers-added", run.tenant_id)
        )
        remind(fired, step, deps.notifications, deps.clock)
    return result
