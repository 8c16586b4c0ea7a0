"""resolveInterrupt: the one resolve path behind both surfaces (by run, by signed token).

handler -> `resolve_answer` (with its Idempotency-Key: replay, or plan and commit the answer in the
resolution's own transaction; `resolve_shown` for a page, with the interrupt as it left it) ->
`plan_resolve` (the checks and what the answer decides) -> the store's one conditional transaction
(`run.optimistic`) -> `after_commit` (deliver to the workflow, or tell the agent side of a question).
A first keyed resolve costs one BatchGetItem and one TransactWriteItems; a replay the read alone
(docs/idempotency.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from waitgate.approval.approver_config import ApprovalConfig, NoDirectory
from waitgate.approval.vote_outcome import Decision, decide
from waitgate.errors import (
    DeliveryFailedError,
    OutcomeUnknownError,
    PayloadTooLargeError,
    TemporarilyUnavailableError,
    ValidationFailedError,
    WaitgateError,
)
from waitgate.ledger.entries import SAYS_VIA, Via, via_of
from waitgate.ports import Clock, Directory, InterruptStore, Notifier, Telemetry, Workflow
from waitgate.run import conversation, event_log, reentry
from waitgate.run.answerable import pending_record
from waitgate.run.answers import Answer, json_answer, problem_answer
from waitgate.run.ask_run_end import run_after_end
from waitgate.run.clock import parse_rfc3339, rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.identity import Caller
from waitgate.run.inbox_items import decision_receipts
from waitgate.run.kept_answers import replay, stored
from waitgate.run.optimistic import retry_from_current
from waitgate.run.records import GuardedItem, IdempotencyRef, InterruptRecord, RunChange, RunRef, RunView
from waitgate.run.resume_values import validated_resume
from waitgate.run.size_limits import check_comment, check_resume_value
from waitgate.run.telemetry import (
    Correlation,
    Decided,
    NoTelemetry,
    Voted,
    decision_outcome,
    milliseconds_between,
)
from waitgate.service._eligibility import eligibility_of
from waitgate.service._kept_answers import kept_refusal
from waitgate.service.deliver_resolution import PARKED, DeliveryDependencies, deliver

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ResolveCommand:
    run: RunRef
    node_id: str
    resume_value: Any
    caller: Caller
    interrupt_id: str | None = None  # a signed token pins the interrupt it was minted for
    surface: Literal["run", "token"] = "run"
    # The resume value a form stands for, read against the interrupt it answers (the human page's
    # form on the run surface: its fields mean something only for that interrupt); None: resume_value.
    resume_from: Callable[[InterruptRecord], Any] | None = field(default=None, compare=False)
    guarded: tuple[GuardedItem, ...] = ()  # held in the resolution's transaction (a webhook event's)
    note: EventEntry | None = None  # a debug event logged with the resolution (which event matched)
    via: Via | None = None  # what the answer came by (docs/ledger.md); None: what the caller's `via` says


@dataclass(frozen=True)
class ResolveOutcome:
    status: Literal["resolved", "pending"]
    run_id: str
    node_id: str
    interrupt_id: str
    resume_value: Any = None
    delivered: bool = False
    run_gone: bool = False  # delivered inline, the engine said the run no longer waits (task gone, refused)

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "runId": self.run_id,
            "nodeId": self.node_id,
            "interruptId": self.interrupt_id,
            "status": self.status,
        }
        if self.status == "resolved":
            body["resumeValue"] = self.resume_value
        return body


@dataclass(frozen=True)
class ResolveDependencies:
    store: InterruptStore
    workflow: Workflow
    clock: Clock
    directory: Directory = field(default_factory=NoDirectory)
    approval: ApprovalConfig = field(default_factory=ApprovalConfig)
    notifier: Notifier | None = None  # None: asks are recorded, nobody is told
    telemetry: Telemetry = field(default_factory=NoTelemetry)


@dataclass(frozen=True)
class ResolvePlan:
    """What one attempt will commit, and what it means once committed."""

    record: InterruptRecord
    decision: Decision
    change: RunChange
    action: str | None = None  # the approval vote's action (what the metrics count)

    def outcome(self) -> ResolveOutcome:
        """The answer's content, known before the commit (delivery does not change it)."""
        record, decision = self.record, self.decision
        if not decision.resolved:
            return ResolveOutcome("pending", record.run.run_id, record.node_id, record.interrupt_id)
        return ResolveOutcome(
            "resolved", record.run.run_id, record.node_id, record.interrupt_id, decision.resume_value
        )


def resolve_interrupt(command: ResolveCommand, deps: ResolveDependencies) -> ResolveOutcome:
    """Commit the resolution once (conditional transaction), then deliver it to the workflow."""

    _correlate(command, deps)

    def attempt(current: RunView | None) -> ResolvePlan:
        plan = plan_resolve(current or deps.store.load(command.run, command.node_id), command, deps)
        deps.store.commit(plan.change)
        return plan

    return after_commit(retry_from_current(attempt, "interrupt"), deps)


def plan_resolve(view: RunView, command: ResolveCommand, deps: ResolveDependencies) -> ResolvePlan:
    """Everything but the write: the checks (404, 409, 410, 403, 400) and what the answer decides."""
    record = pending_interrupt(view, command, deps.clock)
    deps.telemetry.correlate(Correlation.at(record.run, record.node_id, record.interrupt_id, record.kind))
    decision, now, voted = _decision(record, command, deps)
    if decision.resolved:
        change = resolution_change(
            view, decision.record, decision.resume_value, now, command.caller.principal
        )
        change = _with_command_extras(change, command, now)
    else:
        change = _recorded(view, decision.record, decision.events, now)
    return ResolvePlan(record, decision, with_via(change, command.via or via_of(command.caller)), voted)


def with_via(change: RunChange, via: Via | None) -> RunChange:
    """The vote's and the resolution's events say what the answer came by (docs/ledger.md)."""
    if via is None:
        return change
    events = tuple(
        replace(event, payload={**event.payload, "via": via}) if event.type in SAYS_VIA else event
        for event in change.events
    )
    return replace(change, events=events)


def _correlate(command: ResolveCommand, deps: ResolveDependencies) -> None:
    run = command.run
    deps.telemetry.correlate(Correlation.at(run, command.node_id, command.interrupt_id))


def _count(plan: ResolvePlan, deps: ResolveDependencies) -> None:
    """What the committed answer was: a vote (approvals), and a decision with its time to decision."""
    record, tenant = plan.record, plan.record.run.tenant_id
    if plan.action is not None:
        deps.telemetry.record(Voted(record.kind, plan.action, tenant))
    if plan.decision.resolved:
        waited = milliseconds_between(parse_rfc3339(record.requested_at), deps.clock.now())
        outcome = decision_outcome(plan.decision.resume_value)
        deps.telemetry.record(Decided(record.kind, outcome, waited, tenant))


def _with_command_extras(change: RunChange, command: ResolveCommand, now: str) -> RunChange:
    """What the caller commits with the resolution: its guards, its debug note."""
    if command.note is not None:
        snapshot, events = event_log.append(change.snapshot, now, [command.note])
        change = replace(change, snapshot=snapshot, events=change.events + events)
    return replace(change, guarded=change.guarded + command.guarded)


def after_commit(plan: ResolvePlan, deps: ResolveDependencies) -> ResolveOutcome:
    """Committed is decided: deliver a resolution, or tell the agent side of a question."""
    _count(plan, deps)
    if not plan.decision.resolved:
        _tell_agent_side(plan.record, plan.decision, deps.notifier)
        return plan.outcome()
    return _deliver(plan.record, plan.decision.resume_value, deps, plan.change)


def _decision(
    record: InterruptRecord, command: ResolveCommand, deps: ResolveDependencies
) -> tuple[Decision, str, str | None]:
    """Eligibility first (403 before 400: an outsider learns nothing of the interrupt's rules), resolved
    now from the directory; then the resume value; then what it decides (and an approval vote's action)."""
    moment = deps.clock.now()
    eligibility = eligibility_of(record, command.caller.principal, deps.directory, deps.approval, moment)
    raw = command.resume_from(record) if command.resume_from is not None else command.resume_value
    resume_value = validated_resume(record, raw, command.caller)
    if record.kind == "approval":
        check_comment(resume_value.get("feedback"))  # the vote's own size is its quorum's share
    else:
        check_resume_value(resume_value)
    now = rfc3339(moment)
    action = resume_value.get("action") if record.kind == "approval" else None
    voted = action if isinstance(action, str) else None
    return decide(record, resume_value, now, eligibility, deps.approval), now, voted


def _tell_agent_side(record: InterruptRecord, decision: Decision, notifier: Notifier | None) -> None:
    """After the commit: the ask is recorded whatever happens here; a failed notice is logged."""
    if decision.ask is None or notifier is None:
        return
    try:
        notifier.notify_ask(record.run, record.node_id, record.interrupt_id, decision.ask)
    except DeliveryFailedError as error:
        logger.warning("ask notification failed", extra={"code": error.extensions.get("aws_code")})


def pending_interrupt(view: RunView, command: ResolveCommand, clock: Clock) -> InterruptRecord:
    """The interrupt the command may resolve, or the error that tells the caller why not."""
    return pending_record(view, clock, interrupt_id=command.interrupt_id, surface=command.surface)


def resolution_change(
    view: RunView, record: InterruptRecord, resume_value: Any, now: str, decider: str | None = None
) -> RunChange:
    """The interrupt resolved with `resume_value` (by a person, `decider`, or by its deadline, None):
    `interrupt.resolved`, and the deciders' receipts (docs/inbox.md) in the same transaction."""
    assert view.snapshot is not None
    resolved = replace(
        record,
        status="resolved",
        version=record.version + 1,
        resume_value=resume_value,
        resolved_at=now,
    )
    payload = {
        "nodeId": record.node_id,
        "interruptId": record.interrupt_id,
        "kind": record.kind,
        "resumeValue": resume_value,
    }
    entries = event_log.with_legacy("interrupt.resolved", record.kind, payload, record.node_id)
    run_status, run_ended = run_after_end(view.snapshot, record, "resolved")
    snapshot, events = event_log.append(view.snapshot, now, [*entries, *run_ended])
    if snapshot.current_node_id == record.node_id:
        snapshot = replace(snapshot, status=run_status, current_node_id=None, pending_interrupt_id=None)
    return RunChange(
        snapshot=snapshot,
        interrupt=resolved,
        expected_interrupt_version=record.version,
        events=events,
        guarded=conversation.resolution_guards(record, now),
        reentry=reentry.ended_key(resolved),
        receipts=decision_receipts(record, decider, resume_value, now) if decider else (),
    )


def _recorded(view: RunView, record: InterruptRecord, entries: tuple[EventEntry, ...], now: str) -> RunChange:
    """A vote or a question that does not end the suspend: kept on the interrupt, logged in debug."""
    assert view.snapshot is not None and view.interrupt is not None
    snapshot, events = event_log.append(view.snapshot, now, list(entries))
    return RunChange(
        snapshot=snapshot,
        interrupt=record,
        expected_interrupt_version=view.interrupt.version,
        events=events,
    )


def _deliver(
    record: InterruptRecord, resume_value: Any, deps: ResolveDependencies, committed: RunChange
) -> ResolveOutcome:
    """Committed is decided; a task that is gone or a failed send does not undo the decision (a failed
    send is left to the outbox: the stream consumer delivers what is committed but not delivered). Nor
    does a store that did not take the delivery's bookkeeping (its mark, its event): the answer is the
    committed decision, never a 503 or 504, and the outbox finds the item unmarked."""
    resolved = replace(record, status="resolved", resume_value=resume_value)
    outcome = ""
    try:
        sender = DeliveryDependencies(deps.store, deps.workflow, deps.clock, deps.telemetry)
        outcome = deliver(resolved, sender, "inline", committed)
    except DeliveryFailedError:
        pass
    except (TemporarilyUnavailableError, OutcomeUnknownError) as error:
        logger.warning("delivery bookkeeping not recorded: the outbox sees it", extra={"code": error.code})
    return ResolveOutcome(
        status="resolved",
        run_id=record.run.run_id,
        node_id=record.node_id,
        interrupt_id=record.interrupt_id,
        resume_value=resume_value,
        delivered=outcome == "delivered",
        run_gone=outcome in PARKED,
    )


def outcome_answer(outcome: ResolveOutcome) -> Answer:
    return json_answer(200 if outcome.status == "resolved" else 202, outcome.to_json())


SHOWN_REFUSALS = (ValidationFailedError, PayloadTooLargeError)  # of the answer itself: a form shows them


@dataclass(frozen=True)
class Resolved:
    """A resolve as a page shows it next: the answer, and the interrupt as the resolve left it (voted on,
    asked, resolved: what it committed; refused for its content: as it read it). None for a replay or
    a kept refusal of the interrupt's state."""

    answer: Answer
    interrupt: InterruptRecord | None = None
    run_gone: bool = False  # the engine said the run no longer waits: nothing goes on with the answer
    refusal: WaitgateError | None = None  # one of SHOWN_REFUSALS (the answer is its problem+json)


def resolve_answer(command: ResolveCommand, ref: IdempotencyRef | None, deps: ResolveDependencies) -> Answer:
    """The answer to a resolve request, with or without an Idempotency-Key; a refusal that is not kept
    as the key's answer is raised."""
    resolved = resolve_shown(command, ref, deps)
    if resolved.refusal is not None:
        raise resolved.refusal
    return resolved.answer


def resolve_shown(command: ResolveCommand, ref: IdempotencyRef | None, deps: ResolveDependencies) -> Resolved:
    """`resolve_answer` for a caller that shows the interrupt next, from the one read of it this resolve
    made: a refusal of the answer's content (400, 413) comes back with the interrupt, not raised."""
    _correlate(command, deps)

    def attempt(current: RunView | None) -> tuple[Resolved, ResolvePlan | None]:
        # what a lost commit found is the run and node alone: a keyed resolve reads its key's answer too
        view = (
            current
            if current is not None and ref is None
            else deps.store.load(command.run, command.node_id, ref)
        )
        now = deps.clock.now()
        earlier = replay(view.answer, ref, now) if ref is not None and view.answer else None
        if earlier is not None:
            return Resolved(earlier), None
        try:
            plan = plan_resolve(view, command, deps)
        except SHOWN_REFUSALS as error:
            return Resolved(problem_answer(error), view.interrupt, refusal=error), None
        except WaitgateError as error:
            if ref is None:
                raise
            return Resolved(kept_refusal(error, ref, deps.store, now)), None
        answer = outcome_answer(plan.outcome())
        kept = (ref, stored(ref, answer, now)) if ref is not None else None
        deps.store.commit(replace(plan.change, answer=kept))
        return Resolved(answer, plan.change.interrupt), plan

    resolved, committed = retry_from_current(attempt, "interrupt")
    if committed is None:
        return resolved
    return replace(resolved, run_gone=after_commit(committed, deps).run_gone)
