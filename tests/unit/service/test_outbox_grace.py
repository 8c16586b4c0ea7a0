"""The outbox and a resolver in flight: a task Step Functions calls gone because the resolver has just
answered it is not recorded as gone (docs/durability.md, the outbox)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tests.fakes.memory import CountingIds, FixedClock, MemoryStore, RecordingWorkflow
from waitgate.run.identity import Caller
from waitgate.run.records import RunRef
from waitgate.service.deliver_resolution import DeliveryDependencies, deliver_undelivered
from waitgate.service.request_interrupt import InterruptRequest, RequestDependencies, request_interrupt
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_interrupt

RUN = RunRef("default", "run-1")
APPROVAL = {
    "kind": "approval",
    "key": "ship",
    "data": {"artifactId": "a", "artifactType": "doc", "title": "Ship?", "actions": ["accept", "reject"]},
}
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


def resolved_with_its_mark_on_the_way() -> tuple[MemoryStore, RecordingWorkflow, Any]:
    """A resolution the resolver has sent (the task no longer waits) but not yet marked delivered."""
    store, workflow, clock = MemoryStore(), RecordingWorkflow(), FixedClock()
    request_interrupt(
        InterruptRequest("task-1", RUN, "Gate", APPROVAL),
        RequestDependencies(store, workflow, clock, CountingIds()),
    )
    caller = Caller(principal="alice", tenant_id="default", via="jwt")
    resolve_interrupt(
        ResolveCommand(RUN, "Gate", ACCEPT, caller), ResolveDependencies(store, workflow, clock)
    )
    marked = store.interrupts[(RUN, "Gate")]
    store.interrupts[(RUN, "Gate")] = replace(marked, delivered_at=None, delivery_outcome=None)
    workflow.gone.add("task-1")  # answered: Step Functions no longer takes an answer for it
    return store, workflow, marked


@dataclass
class PausingClock(FixedClock):
    """A fixed clock that counts the pauses asked of it (and can act on the second)."""

    pauses: list[float] = field(default_factory=list)
    on_second_pause: Callable[[], None] | None = None

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        if len(self.pauses) == 2 and self.on_second_pause is not None:
            self.on_second_pause()
        super().sleep(seconds)


def event_types(store: MemoryStore) -> list[str]:
    return [event.type for event in store.events_of(RUN)]


def test_the_outbox_waits_for_the_resolvers_mark_before_calling_a_task_gone() -> None:
    # Given the outbox handed a resolution whose resolver is still marking its own delivery
    store, workflow, marked = resolved_with_its_mark_on_the_way()
    clock = PausingClock(on_second_pause=lambda: store.interrupts.update({(RUN, "Gate"): marked}))
    deps = DeliveryDependencies(store, workflow, clock)
    interrupt_id = marked.interrupt_id
    # When it delivers, Then the task is not called gone: it was delivered, by the resolver
    assert deliver_undelivered(RUN, "Gate", interrupt_id, deps) == "already-delivered"
    assert "interrupt.delivery_failed" not in event_types(store)
    assert store.interrupts[(RUN, "Gate")].delivery_outcome == "delivered"


def test_a_task_really_gone_is_recorded_after_the_grace() -> None:
    # Given a resolution nobody marks delivered, whose task Step Functions no longer knows
    store, workflow, marked = resolved_with_its_mark_on_the_way()
    clock = PausingClock()
    deps = DeliveryDependencies(store, workflow, clock)
    # When the outbox delivers, Then after a short grace it records the task gone, once
    assert deliver_undelivered(RUN, "Gate", marked.interrupt_id, deps) == "task-gone"
    assert 1.0 < sum(clock.pauses) < 5.0
    assert event_types(store).count("interrupt.delivery_failed") == 1
    assert store.interrupts[(RUN, "Gate")].delivery_outcome == "task-gone"
