"""What an interrupt's escalation policy means for it now: the policy it holds, the approvers its fired
steps added, and the change one step firing makes (docs/escalation.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from waitgate.approval import AddedApprovers
from waitgate.run import event_log
from waitgate.run.clock import parse_rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.records import InterruptRecord, JSONObject, RunChange, RunView

if TYPE_CHECKING:
    from waitgate.escalation import EscalationPolicy, Step

StepState = Literal["due", "not-due", "fired", "ended", "unknown"]
_FIELDS = ("approversList", "approverGroupRefs", "approverRoleRefs")


def policy_of(record: InterruptRecord) -> EscalationPolicy:
    # imported here: a resolve of an interrupt without a policy (most of them) never loads the rules
    from waitgate.escalation import policy_from_json

    return policy_from_json(record.escalation or {})


def added_approvers(record: InterruptRecord) -> tuple[AddedApprovers, ...]:
    """The approvers the interrupt's fired steps added: eligible from their step on."""
    if record.escalation is None or not record.escalated:
        return ()
    return policy_of(record).added_approvers(record.escalated)


def step_state(view: RunView, interrupt_id: str, step: Step | None, now_iso: str) -> StepState:
    """Whether the step may fire now: a step of an interrupt that ended, or that fired before, is
    nothing to do; one past the interrupt's deadline neither (the deadline's own schedule ends it)."""
    record = view.interrupt
    if view.snapshot is None or record is None or record.interrupt_id != interrupt_id or step is None:
        return "unknown"
    now = parse_rfc3339(now_iso)
    if record.status != "pending" or view.snapshot.is_terminal:
        return "ended"
    if record.deadline is not None and now >= parse_rfc3339(record.deadline):
        return "ended"
    if step.index in record.escalated:
        return "fired"
    if now < step.due(parse_rfc3339(record.requested_at)):
        return "not-due"
    return "due"


def step_change(view: RunView, record: InterruptRecord, step: Step, now: str) -> RunChange:
    """The step recorded on the interrupt (it fires once) with its events: `interrupt.escalated`
    (updates, with the approvers added) and `interrupt.reminded` (debug)."""
    assert view.snapshot is not None
    fired = replace(record, escalated=(*record.escalated, step.index), version=record.version + 1)
    snapshot, events = event_log.append(view.snapshot, now, list(_entries(record, step)))
    return RunChange(
        snapshot=snapshot, interrupt=fired, expected_interrupt_version=record.version, events=events
    )


def _entries(record: InterruptRecord, step: Step) -> tuple[EventEntry, ...]:
    about: JSONObject = {"nodeId": record.node_id, "interruptId": record.interrupt_id, "step": step.index}
    entries: list[EventEntry] = []
    if step.add_approvers is not None:
        added = step.add_approvers
        values = (added.approvers_list, added.approver_group_refs, added.approver_role_refs)
        refs = {name: list(value) for name, value in zip(_FIELDS, values, strict=True) if value}
        entries.append(EventEntry("interrupt.escalated", {**about, "added": refs}, record.node_id))
    if step.remind:
        entries.append(EventEntry("interrupt.reminded", about, record.node_id, "debug"))
    return tuple(entries)
