"""requestInterrupt: a workflow's waitForTaskToken task asks for an interrupt and suspends."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, Literal

from waitgate.clock import rfc3339
from waitgate.errors import (
    CapabilityNotSupportedError,
    ConcurrentUpdateError,
    GuardFailedError,
    InterruptPayloadInvalidError,
    WaitgateError,
)
from waitgate.payloads import parse_interrupt_payload, snapshot_status_for
from waitgate.ports import Clock, IdGenerator, InterruptStore, Workflow
from waitgate.records import (
    DEFAULT_TENANT,
    InterruptRecord,
    JSONObject,
    RunChange,
    RunRef,
    RunSnapshot,
    RunView,
    check_node_id,
)
from waitgate.service import conversation, event_log
from waitgate.service.notify import NotificationDependencies, announce
from waitgate.workflow_event import parse_workflow_event

MAX_ATTEMPTS = 8


@dataclass(frozen=True)
class InterruptRequest:
    task_token: str
    run: RunRef
    node_id: str
    interrupt: Any
    configurable: JSONObject | None = None


@dataclass(frozen=True)
class RequestOutcome:
    status: Literal["requested", "rejected", "taken-over"]
    interrupt_id: str | None = None
    record: InterruptRecord | None = None


@dataclass(frozen=True)
class RequestDependencies:
    store: InterruptStore
    workflow: Workflow
    clock: Clock
    ids: IdGenerator
    conversation_capability: bool = True
    notifications: NotificationDependencies | None = None  # None: nobody is notified


def request_interrupt(request: InterruptRequest, deps: RequestDependencies) -> RequestOutcome:
    """Validate, record and suspend; an invalid payload fails the task with a name a Catch can match."""
    try:
        model = parse_interrupt_payload(request.interrupt)
        conversation.check_capability(model.kind, deps.conversation_capability)
    except (InterruptPayloadInvalidError, CapabilityNotSupportedError) as error:
        deps.workflow.send_failure(request.task_token, error.code, error.detail)
        return RequestOutcome(status="rejected")
    payload: JSONObject = request.interrupt  # stored verbatim: interrupt.requested carries it as sent
    for _ in range(MAX_ATTEMPTS):
        view = deps.store.load(request.run, request.node_id)
        outcome, change = _plan(request, payload, model.kind, view, deps)
        try:
            deps.store.commit(change)
        except ConcurrentUpdateError:
            continue
        except GuardFailedError as failed:
            refusal = conversation.guard_error(failed.label, payload)
            deps.workflow.send_failure(request.task_token, refusal.code, refusal.detail)
            return RequestOutcome(status="rejected")
        if outcome.status == "requested" and outcome.record is not None:
            announce(outcome.record, deps.notifications, deps.clock)  # a take-over notifies nobody
        return outcome
    raise ConcurrentUpdateError("The run kept changing while the interrupt was requested.")


def _plan(
    request: InterruptRequest,
    payload: JSONObject,
    kind: str,
    view: RunView,
    deps: RequestDependencies,
) -> tuple[RequestOutcome, RunChange]:
    snapshot = view.snapshot or RunSnapshot.new(request.run)
    current = view.interrupt
    if current and current.status == "pending" and current.key == payload["key"]:
        return _take_over(request, snapshot, current)
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
        deadline=_deadline(now, payload.get("timeoutMs")),
    )
    entries = event_log.with_legacy("interrupt.requested", kind, payload, request.node_id)
    snapshot, events = event_log.append(snapshot, record.requested_at, entries)
    snapshot = replace(
        snapshot,
        status=snapshot_status_for(kind),
        current_node_id=request.node_id,
        pending_interrupt_id=record.interrupt_id,
    )
    change = RunChange(
        snapshot=snapshot,
        interrupt=record,
        expected_interrupt_version=current.version if current else None,
        events=events,
        guarded=conversation.request_guards(request.run, payload, record.requested_at),
    )
    return RequestOutcome("requested", record.interrupt_id, record), change


def _take_over(
    request: InterruptRequest, snapshot: RunSnapshot, current: InterruptRecord
) -> tuple[RequestOutcome, RunChange]:
    """The same key is still pending (a retried state, a Lambda retry): adopt the new task token."""
    adopted = replace(current, task_token=request.task_token, version=current.version + 1)
    change = RunChange(snapshot=snapshot, interrupt=adopted, expected_interrupt_version=current.version)
    return RequestOutcome("taken-over", current.interrupt_id, adopted), change


def _deadline(now: Any, timeout_ms: Any) -> str | None:
    if not isinstance(timeout_ms, int):
        return None
    return rfc3339(now + timedelta(milliseconds=timeout_ms))


def request_from_task_event(event: Any, deps: RequestDependencies) -> RequestOutcome:
    """The Task's event checked first; a malformed one with a token fails the task by name."""
    task_token = event.get("taskToken") if isinstance(event, dict) else None
    try:
        task = parse_workflow_event(event)
        request = InterruptRequest(
            task_token=task.task_token,
            run=RunRef.parse(task.tenant_id or DEFAULT_TENANT, task.run_id),
            node_id=check_node_id(task.node_id),
            interrupt=task.interrupt,
            configurable=task.configurable,
        )
    except WaitgateError as error:
        if not isinstance(task_token, str) or not task_token:
            raise  # nobody to answer: a wiring bug, surfaced as the invocation's error
        deps.workflow.send_failure(task_token, InterruptPayloadInvalidError.code, error.detail)
        return RequestOutcome(status="rejected")
    return request_interrupt(request, deps)
