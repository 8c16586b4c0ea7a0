"""requestInterrupt: a workflow's waitForTaskToken task (or a durable function's callback) asks for an
interrupt and suspends. `task_token` is the handle the run waits on (waitgate.run.resume_handles)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from waitgate.errors import (
    CapabilityNotSupportedError,
    ConcurrentUpdateError,
    GuardFailedError,
    InterruptPayloadInvalidError,
    TemporarilyUnavailableError,
    ValidationFailedError,
    WaitgateError,
)
from waitgate.escalation import EscalationPolicy, HostDefaults, default_for, parse_policy, to_json
from waitgate.escalation.deadline_decision import check_resolve_with
from waitgate.payloads.correlation import awaited_event, with_object_correlation
from waitgate.payloads.kinds import snapshot_status_for
from waitgate.ports import Clock, DeadlineScheduler, IdGenerator, InterruptStore, Telemetry, Workflow
from waitgate.run import conversation, event_log, reentry
from waitgate.run.asked import parse_notify
from waitgate.run.clock import rfc3339
from waitgate.run.execution_links import EXECUTION_LINK, execution_link_guard
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import (
    DEFAULT_TENANT,
    InterruptRecord,
    JSONObject,
    ReentryKey,
    RunChange,
    RunRef,
    RunSnapshot,
    RunView,
    check_node_id,
)
from waitgate.run.reentry import KeySupersededError
from waitgate.run.size_limits import check_required_approvals
from waitgate.run.telemetry import Correlation, NoTelemetry, Requested
from waitgate.run.wait_limits import MAX_TIMEOUT_MS
from waitgate.run.workflow_event import handle_in, parse_workflow_event
from waitgate.service import deadline_schedules
from waitgate.service._reentry import replay_ending
from waitgate.service.deliver_resolution import DeliveryDependencies
from waitgate.service.match_event import MatchDependencies, resolve_early
from waitgate.service.notify import NotificationDependencies, announce, workflow_of
from waitgate.webhooks.matching import shape_of

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class InterruptRequest:
    task_token: str
    run: RunRef
    node_id: str
    interrupt: Any
    configurable: JSONObject | None = None
    execution_arn: str | None = None
    escalation: Any = None  # the Task's escalation policy; None: the host's default for the tenant
    notify: Any = None  # who the Task asks beside the interrupt (waitgate.run.asked); None: its own fields


@dataclass(frozen=True)
class RequestOutcome:
    status: Literal["requested", "rejected", "taken-over", "replayed"]
    interrupt_id: str | None = None
    record: InterruptRecord | None = None
    replay: ReentryKey | None = None  # the ended key whose answer a replay gives again
    expire_now: bool = False  # its deadline was due before a schedule could fire for it


@dataclass(frozen=True)
class RequestDependencies:
    store: InterruptStore
    workflow: Workflow
    clock: Clock
    ids: IdGenerator
    conversation_capability: bool = True
    notifications: NotificationDependencies | None = None  # None: nobody is notified
    deadlines: DeadlineScheduler | None = None  # None: deadlines hold on resolve, nobody fails the task
    escalation_defaults: HostDefaults = field(default_factory=dict)  # per tenant (docs/escalation.md)
    telemetry: Telemetry = field(default_factory=NoTelemetry)
    early_events: MatchDependencies | None = None  # None: no webhook event is kept for a later wait


def request_interrupt(request: InterruptRequest, deps: RequestDependencies) -> RequestOutcome:
    """Validate, record and suspend; an invalid payload fails the task with a name a Catch can match."""
    run, kind = request.run, _kind_of(request.interrupt)
    deps.telemetry.correlate(Correlation.at(run, request.node_id, kind=kind))
    outcome = _request(request, deps)
    if outcome.interrupt_id is not None:
        ids = Correlation.at(run, request.node_id, outcome.interrupt_id, kind)
        deps.telemetry.correlate(ids)
    deps.telemetry.record(Requested(kind or "", outcome.status, run.tenant_id))
    return outcome


def _kind_of(payload: Any) -> str | None:
    kind = payload.get("kind") if isinstance(payload, dict) else None
    return kind if isinstance(kind, str) else None


def _request(request: InterruptRequest, deps: RequestDependencies) -> RequestOutcome:
    # The payload models (pydantic) are the validation: loaded by the first request, not at import, so
    # that an instance's init does not build them (docs/performance.md, "Cold start as deployed").
    from waitgate.payloads.interrupt import parse_interrupt_payload

    request = replace(request, interrupt=with_object_correlation(request.interrupt))
    try:
        model = parse_interrupt_payload(request.interrupt)
        _within_host_limits(request.interrupt)
        conversation.check_capability(model.kind, deps.conversation_capability)
        policy = _escalation(request, model.kind, deps)
        request = replace(request, notify=parse_notify(request.notify))
    except (InterruptPayloadInvalidError, CapabilityNotSupportedError) as error:
        deps.workflow.send_failure(request.task_token, error.code, error.detail)
        return RequestOutcome(status="rejected")
    payload: JSONObject = request.interrupt  # stored as sent (a string correlation as its object form)
    _register_shape(payload, request.run, deps)

    def attempt() -> RequestOutcome:
        view = deps.store.load(request.run, request.node_id, reentry_key=payload["key"])
        outcome, change = _plan(request, payload, model.kind, view, deps, policy)
        deps.store.commit(change)
        return outcome

    try:
        # a lost execution link is another request of the same execution: read again and join it
        outcome = retry_on_conflict(attempt, "run", retried_guards=(EXECUTION_LINK,))
    except KeySupersededError as superseded:
        deps.workflow.send_failure(request.task_token, superseded.code, superseded.detail)
        return RequestOutcome(status="rejected")
    except GuardFailedError as failed:
        refusal = conversation.guard_error(failed.label, payload)
        deps.workflow.send_failure(request.task_token, refusal.code, refusal.detail)
        return RequestOutcome(status="rejected")
    _after_commit(outcome, request, deps)
    return outcome


def _escalation(request: InterruptRequest, kind: str, deps: RequestDependencies) -> EscalationPolicy | None:
    """The policy in force: the Task's own (checked, `resolveWith` against the interrupt's resume rules),
    else the tenant's host default fitted to the interrupt; None when nothing escalates."""
    payload = request.interrupt
    timeout_ms = payload.get("timeoutMs") if isinstance(payload.get("timeoutMs"), int) else None
    if request.escalation is None:
        tenant = request.run.tenant_id
        return default_for(deps.escalation_defaults, tenant, kind=kind, timeout_ms=timeout_ms)
    policy = parse_policy(request.escalation, kind=kind, timeout_ms=timeout_ms)
    check_resolve_with(kind, payload, policy, rfc3339(deps.clock.now()))
    return None if policy.is_empty else policy


def _within_host_limits(payload: JSONObject) -> None:
    """The host's own bounds on a valid payload (docs/protocol-profile.md, "Limits")."""
    timeout_ms = payload.get("timeoutMs")
    if isinstance(timeout_ms, int) and timeout_ms > MAX_TIMEOUT_MS:
        raise InterruptPayloadInvalidError(
            f"timeoutMs may be at most {MAX_TIMEOUT_MS} (363 days: a run lasts at most a year, and the "
            "Task's backstop comes a day after the longest deadline) (at interrupt.timeoutMs)"
        )
    if payload["kind"] != "approval":
        return
    try:
        check_required_approvals(int(payload["data"].get("requiredApprovals", 1)))
    except ValidationFailedError as error:
        raise InterruptPayloadInvalidError(f"{error.detail} (at {error.extensions['path']})") from None


def _register_shape(payload: JSONObject, run: RunRef, deps: RequestDependencies) -> None:
    """Before the wait is indexed: the member names it correlates on, so an event finds its key."""
    awaited = awaited_event(payload)
    if awaited is not None and deps.early_events is not None:
        event_type, correlation = awaited
        deps.early_events.events.register_shape(run.tenant_id, event_type, shape_of(correlation))


def _resolved_early(record: InterruptRecord, deps: RequestDependencies) -> bool:
    """Whether a webhook event kept before this wait resolved it; a store too busy to say leaves the
    wait pending (the event stays kept: the provider's retry, or the next delivery, matches it)."""
    if deps.early_events is None or record.kind != "external-event":
        return False
    try:
        return resolve_early(record, deps.early_events) is not None
    except TemporarilyUnavailableError:
        logger.warning("kept webhook events could not be read", extra={"runId": record.run.run_id})
        return False


def _after_commit(outcome: RequestOutcome, request: InterruptRequest, deps: RequestDependencies) -> None:
    if outcome.status == "requested" and outcome.record is not None:
        if _resolved_early(outcome.record, deps):
            return  # an event kept before the wait resolved it at once: nobody is notified
        if outcome.expire_now:  # its deadline passed before a schedule could fire: nobody is asked
            delivery = DeliveryDependencies(deps.store, deps.workflow, deps.clock, deps.telemetry)
            deadline_schedules.expire_now(outcome.record, delivery)
            return
        workflow = workflow_of(request.execution_arn)
        announce(outcome.record, deps.notifications, deps.clock, workflow)  # a take-over notifies nobody
    elif outcome.replay is not None:
        delivery = DeliveryDependencies(deps.store, deps.workflow, deps.clock, deps.telemetry)
        replay_ending(request.run, outcome.replay, request.task_token, delivery)


def _plan(
    request: InterruptRequest,
    payload: JSONObject,
    kind: str,
    view: RunView,
    deps: RequestDependencies,
    policy: EscalationPolicy | None,
) -> tuple[RequestOutcome, RunChange]:
    snapshot = view.snapshot or RunSnapshot.new(request.run)
    entry = view.reentry
    if entry is not None and view.snapshot is not None:
        return _reenter(request, view.snapshot, entry, view, deps)
    current = view.interrupt
    if current and current.status == "pending" and current.key == payload["key"]:
        change = reentry.take_over(snapshot, current, request.task_token)
        return RequestOutcome("taken-over", current.interrupt_id, change.interrupt), change
    record, expire_now = _new_record(request, payload, kind, current, deps, policy)
    entries = event_log.with_legacy("interrupt.requested", kind, payload, request.node_id)
    snapshot, events = event_log.append(snapshot, record.requested_at, entries)
    snapshot = replace(
        snapshot,
        status=snapshot_status_for(kind),
        current_node_id=request.node_id,
        pending_interrupt_id=record.interrupt_id,
    )
    guards = conversation.request_guards(request.run, payload, record.requested_at)
    if view.snapshot is None:
        guards += (execution_link_guard(request.run, request.execution_arn, record.requested_at),)
    change = RunChange(
        snapshot=snapshot,
        interrupt=record,
        expected_interrupt_version=current.version if current else None,
        events=events,
        guarded=guards,
        reentry=reentry.pending_key(record),
    )
    return RequestOutcome("requested", record.interrupt_id, record, expire_now=expire_now), change


def _new_record(
    request: InterruptRequest,
    payload: JSONObject,
    kind: str,
    current: InterruptRecord | None,
    deps: RequestDependencies,
    policy: EscalationPolicy | None,
) -> tuple[InterruptRecord, bool]:
    """The interrupt to suspend on; its deadline and its escalation steps are scheduled before the
    commit, so no committed interrupt lacks them (a schedule whose interrupt never commits fires and
    changes nothing); True: its deadline is due already, with no schedule (deadline_schedules)."""
    now = deps.clock.now()
    record = InterruptRecord(
        run=request.run,
        node_id=request.node_id,
        interrupt_id=deps.ids.new_interrupt_id(),
        kind=kind,
        key=payload["key"],
        payload=payload,
        task_token=request.task_token,
        requested_at=rfc3339(now),
        version=current.version + 1 if current else 1,
        deadline=deadline_schedules.deadline_of(now, payload.get("timeoutMs")),
        escalation=to_json(policy) if policy is not None else None,
        execution_arn=request.execution_arn,
        notify=request.notify,
    )
    if deps.deadlines is None:
        return record, False
    return record, deadline_schedules.schedule_all(record, policy, deps.deadlines, deps.clock)


def _reenter(
    request: InterruptRequest,
    snapshot: RunSnapshot,
    entry: ReentryKey,
    view: RunView,
    deps: RequestDependencies,
) -> tuple[RequestOutcome, RunChange]:
    """The key was asked before in this run: give its answer again, or take its interrupt over."""
    if entry.status != "pending":
        change = reentry.replay_change(snapshot, entry, request.node_id, deps.clock)
        return RequestOutcome("replayed", entry.interrupt_id, replay=entry), change
    holder = view if entry.node_id == request.node_id else deps.store.load(request.run, entry.node_id)
    current = holder.interrupt
    if current is None or current.interrupt_id != entry.interrupt_id or current.status != "pending":
        if current is not None and current.interrupt_id != entry.interrupt_id:
            raise KeySupersededError(f"The interrupt with key {entry.key!r} was replaced at its node.")
        raise ConcurrentUpdateError("The key's interrupt is ending.")
    change = reentry.take_over(holder.snapshot or snapshot, current, request.task_token)
    return RequestOutcome("taken-over", current.interrupt_id, change.interrupt), change


def request_from_task_event(event: Any, deps: RequestDependencies) -> RequestOutcome:
    """The Task's event checked first; a malformed one with a token fails the task by name."""
    handle = handle_in(event)
    try:
        task = parse_workflow_event(event)
        request = InterruptRequest(
            task_token=task.handle,
            run=RunRef.parse(task.tenant_id or DEFAULT_TENANT, task.run_id),
            node_id=check_node_id(task.node_id),
            interrupt=task.interrupt,
            configurable=task.configurable,
            execution_arn=task.execution_arn,
            escalation=task.escalation,
            notify=task.notify,
        )
    except WaitgateError as error:
        if handle is None:
            raise  # nobody to answer: a wiring bug, surfaced as the invocation's error
        deps.workflow.send_failure(handle, InterruptPayloadInvalidError.code, error.detail)
        deps.telemetry.record(Requested("", "rejected"))
        return RequestOutcome(status="rejected")
    return request_interrupt(request, deps)
