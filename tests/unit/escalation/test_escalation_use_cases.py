"""Escalation on in-memory ports: the policy checked at request, its schedules made before the commit,
a step firing (once), reminders, added approvers, and the decision at the deadline (docs/escalation.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.fakes.memory import (
    CountingIds,
    FixedClock,
    MemoryDirectory,
    MemoryStore,
    RecordingNotifier,
    RecordingWorkflow,
)
from tests.fakes.schedules import RecordingScheduler
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.errors import ForbiddenError, InterruptAlreadyResolvedError
from waitgate.run.identity import Caller
from waitgate.run.records import RunChange, RunRef
from waitgate.service.deliver_resolution import DeliveryDependencies
from waitgate.service.escalate_interrupt import EscalationDependencies, StepRequest, escalate_interrupt
from waitgate.service.expire_interrupt import ExpiryRequest, NotDueError, expire_interrupt
from waitgate.service.mint_token import LinkSettings
from waitgate.service.notify import NotificationDependencies
from waitgate.service.request_interrupt import InterruptRequest, RequestDependencies, request_interrupt
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_interrupt
from waitgate.tokens import Keyring

RUN = RunRef("default", "run-1")
NODE = "Gate"
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


def approval(**data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "ship",
        "data": {
            "artifactId": "a1",
            "artifactType": "release",
            "title": "Ship 4.2?",
            "actions": ["accept", "reject"],
            **data,
        },
    }


CLARIFICATION = {
    "kind": "clarification",
    "key": "region",
    "data": {"questions": [{"id": "region", "question": "Which region?", "schema": {"enum": ["eu", "us"]}}]},
}


class World:
    def __init__(self, defaults: dict[str, Any] | None = None) -> None:
        self.store = MemoryStore()
        self.workflow = RecordingWorkflow()
        self.clock = FixedClock()
        self.scheduler = RecordingScheduler()
        self.notifier = RecordingNotifier()
        self.directory = MemoryDirectory()
        for member in ("dana", "erin"):
            self.directory.add_member("default", "group", "release-leads", member)
        self.defaults = defaults or {}
        self.notifications = NotificationDependencies(
            notifier=self.notifier,
            keyring=Keyring("k1", {"k1": b"k" * 32}),
            directory=self.directory,
            ref_kinds=frozenset({"principal", "group", "role"}),
            links=LinkSettings(timedelta(minutes=30), "https://links.example.com"),
        )
        self.ids = CountingIds()

    def request(self, payload: dict[str, Any], escalation: Any = None, token: str = "task-1") -> Any:
        deps = RequestDependencies(
            self.store,
            self.workflow,
            self.clock,
            self.ids,
            notifications=self.notifications,
            deadlines=self.scheduler,
            escalation_defaults=self.defaults,
        )
        return request_interrupt(InterruptRequest(token, RUN, NODE, payload, escalation=escalation), deps)

    def fire(self, step: int, interrupt_id: str = "01INTERRUPT000000000000001") -> str:
        deps = EscalationDependencies(self.store, self.clock, self.notifications)
        return escalate_interrupt(StepRequest(RUN, NODE, interrupt_id, step), deps)

    def deadline(self, interrupt_id: str = "01INTERRUPT000000000000001") -> str:
        deps = DeliveryDependencies(self.store, self.workflow, self.clock)
        return expire_interrupt(ExpiryRequest(RUN, NODE, interrupt_id), deps)

    def vote(self, principal: str, value: dict[str, Any] = ACCEPT) -> Any:
        caller = Caller(principal=principal, tenant_id="default", via="jwt")
        deps = ResolveDependencies(self.store, self.workflow, self.clock, self.directory, ApprovalConfig())
        return resolve_interrupt(ResolveCommand(RUN, NODE, value, caller), deps)

    def events(self, mode: str | None = None) -> list[str]:
        return [e.type for e in self.store.events_of(RUN) if mode is None or e.mode == mode]

    def told(self, notice: str | None = None) -> list[str]:
        return [n.recipient for n in self.notifier.notices if notice is None or n.notice == notice]

    def payload_of(self, event_type: str) -> dict[str, Any]:
        (event,) = [e for e in self.store.events_of(RUN) if e.type == event_type]
        return event.payload


@pytest.fixture
def world() -> World:
    return World()


CAROL_AT_ONE_HOUR = {
    "steps": [
        {"afterMs": 1_800_000, "remind": True},
        {
            "afterMs": 3_600_000,
            "addApprovers": {"approversList": ["carol"], "approverGroupRefs": ["release-leads"]},
        },
    ]
}


def test_the_request_schedules_every_step_before_the_commit(world: World) -> None:
    # Given an approval with a deadline and a two-step policy
    outcome = world.request({**approval(approversList=["alice"]), "timeoutMs": 7_200_000}, CAROL_AT_ONE_HOUR)
    # Then one schedule per step (due from the request) and the deadline's were made
    assert outcome.status == "requested"
    start = world.clock.now()
    assert world.scheduler.steps() == [(0, start + timedelta(minutes=30)), (1, start + timedelta(hours=1))]
    assert f"expire-{outcome.interrupt_id}" in world.scheduler.schedules
    # And the interrupt holds the policy, no step fired yet
    record = world.store.interrupts[(RUN, NODE)]
    assert record.escalation == CAROL_AT_ONE_HOUR and record.escalated == ()


@pytest.mark.parametrize(
    ("payload", "escalation", "named"),
    [
        (approval(), {"steps": [{"afterMs": 5, "remind": "yes"}]}, "escalation.steps[0].remind"),
        (
            {**approval(), "timeoutMs": 1000},
            {"onDeadline": {"resolveWith": {"action": "approve"}}},
            "escalation.onDeadline.resolveWith.action",
        ),
        (
            {**approval(), "timeoutMs": 1000},
            {"onDeadline": {"resolveWith": {"action": "reject", "decidedBy": "me"}}},
            "escalation.onDeadline.resolveWith.decidedBy: waitgate sets it",
        ),
        (
            {**CLARIFICATION, "timeoutMs": 1000},
            {"onDeadline": {"resolveWith": {"answers": {"region": "mars"}}}},
            "escalation.onDeadline.resolveWith.answers.region",
        ),
        (
            CLARIFICATION,
            {"steps": [{"afterMs": 5, "addApprovers": {"approversList": ["c"]}}]},
            "addApprovers",
        ),
        (
            {**approval(), "timeoutMs": 1000},
            {"onDeadline": {"resolveWith": {"action": "reject", "feedback": "x" * 5000}}},
            "escalation.onDeadline.resolveWith.feedback: feedback is 5,000 bytes",
        ),
        (
            {**approval(), "timeoutMs": 1000},
            {"onDeadline": {"resolveWith": {"action": "ask"}}},
            "escalation.onDeadline.resolveWith.action: 'ask' never ends",
        ),
    ],
)
def test_an_invalid_policy_fails_the_task_naming_the_member(
    world: World, payload: dict[str, Any], escalation: Any, named: str
) -> None:
    # When the Task sends an invalid policy
    outcome = world.request(payload, escalation)
    # Then the task fails with InterruptPayloadInvalid naming the member, and nothing is kept or scheduled
    assert outcome.status == "rejected"
    ((_, error, cause),) = world.workflow.failures
    assert error == "InterruptPayloadInvalid" and named in cause
    assert world.store.interrupts == {} and world.scheduler.schedules == {}


def test_carol_is_refused_before_the_step_and_counted_after_it(world: World) -> None:
    # Given a 2-of approval of alice and bob, alice has voted
    world.request(approval(approversList=["alice", "bob"], requiredApprovals=2), CAROL_AT_ONE_HOUR)
    assert world.vote("alice").status == "pending"
    # When carol votes before the step, Then she is refused
    with pytest.raises(ForbiddenError):
        world.vote("carol")
    # When the step comes due and fires
    world.clock.advance(hours=1)
    assert world.fire(1) == "escalated"
    # Then the log says who was added, in updates
    assert world.payload_of("interrupt.escalated") == {
        "nodeId": NODE,
        "interruptId": "01INTERRUPT000000000000001",
        "step": 1,
        "added": {"approversList": ["carol"], "approverGroupRefs": ["release-leads"]},
    }
    assert "interrupt.escalated" in world.events("updates")
    # And carol's vote completes the unchanged quorum, alice's earlier vote kept
    outcome = world.vote("carol")
    assert outcome.status == "resolved"
    votes = [(v["principal"], v["eligibility"]["matchedBy"]) for v in outcome.resume_value["votes"]]
    assert votes == [("alice", "list"), ("carol", "escalation:1")]


def test_a_step_that_only_adds_approvers_tells_those_it_added(world: World) -> None:
    world.request(approval(approversList=["alice"]), CAROL_AT_ONE_HOUR)
    world.notifier.notices.clear()
    world.clock.advance(hours=1)
    world.fire(1)
    assert world.told() == ["carol", "dana", "erin"]
    assert {n.notice for n in world.notifier.notices} == {"interrupt.escalated"}


def test_a_reminder_tells_those_who_have_not_voted_with_fresh_links(world: World) -> None:
    # Given a 2-of-3 approval, everyone told once, ann has voted
    world.request(approval(approversList=["ann", "ben", "cy"], requiredApprovals=2), CAROL_AT_ONE_HOUR)
    first_links = {n.recipient: n.link for n in world.notifier.notices}
    world.vote("ann")
    # When the reminding step fires half an hour later
    world.clock.advance(minutes=30)
    assert world.fire(0) == "escalated"
    # Then ben and cy get a reminder with a new link; ann, who voted, does not
    reminders = [n for n in world.notifier.notices if n.notice == "interrupt.reminded"]
    assert [n.recipient for n in reminders] == ["ben", "cy"]
    assert all(n.link != first_links[n.recipient] for n in reminders)
    assert reminders[0].subject.startswith("Reminder: Approval needed: Ship 4.2?")
    # And the reminder is in the debug log only
    assert "interrupt.reminded" in world.events("debug") and "interrupt.reminded" not in world.events(
        "updates"
    )


def test_after_an_escalation_a_reminder_includes_the_added_approvers(world: World) -> None:
    policy = {
        "steps": [
            {"afterMs": 1000, "addApprovers": {"approversList": ["carol"]}},
            {"afterMs": 2000, "remind": True},
        ]
    }
    world.request(approval(approversList=["alice"]), policy)
    world.clock.advance(seconds=2)
    world.fire(0)
    world.notifier.notices.clear()
    world.fire(1)
    assert world.told("interrupt.reminded") == ["alice", "carol"]


def test_a_step_firing_twice_changes_nothing_the_second_time(world: World) -> None:
    # Fault: the scheduler delivers the same step twice (its at-least-once retry)
    world.request(approval(approversList=["alice"]), CAROL_AT_ONE_HOUR)
    world.clock.advance(hours=1)
    commits = world.store.commits
    assert world.fire(1) == "escalated"
    told = len(world.notifier.notices)
    assert world.fire(1) == "already-fired"
    # Then one event, one commit, nobody told twice
    assert world.events().count("interrupt.escalated") == 1
    assert world.store.commits == commits + 1
    assert len(world.notifier.notices) == told


def test_a_step_after_the_end_or_past_the_deadline_is_a_no_op(world: World) -> None:
    world.request({**approval(approversList=["alice"]), "timeoutMs": 7_200_000}, CAROL_AT_ONE_HOUR)
    world.vote("alice")
    world.clock.advance(hours=1)
    assert world.fire(1) == "ended"
    assert "interrupt.escalated" not in world.events()
    # a step of an interrupt never committed, or one the policy does not have
    assert world.fire(1, interrupt_id="01NEVER") == "unknown"
    assert world.fire(7) == "unknown"


def test_a_step_fired_early_fails_so_the_scheduler_retries(world: World) -> None:
    world.request(approval(approversList=["alice"]), CAROL_AT_ONE_HOUR)
    world.clock.advance(minutes=59)
    with pytest.raises(NotDueError):
        world.fire(1)
    assert world.store.interrupts[(RUN, NODE)].escalated == ()


def test_a_step_past_the_deadline_leaves_the_deadline_to_decide(world: World) -> None:
    world.request({**approval(approversList=["alice"]), "timeoutMs": 3_700_000}, CAROL_AT_ONE_HOUR)
    world.clock.advance(hours=2)
    assert world.fire(1) == "ended"


REJECT_AT_DEADLINE = {"onDeadline": {"resolveWith": {"action": "reject", "feedback": "No answer in time."}}}


def test_the_deadline_resolves_with_the_default_decision(world: World) -> None:
    # Given a 2-of approval with a default reject at its deadline, and one vote in
    world.request(
        {**approval(approversList=["ann", "ben"], requiredApprovals=2), "timeoutMs": 60_000},
        REJECT_AT_DEADLINE,
    )
    world.vote("ann")
    # When the deadline passes and its schedule fires
    world.clock.advance(minutes=1)
    assert world.deadline() == "resolved"
    # Then an ordinary interrupt.resolved, decided by waitgate at the deadline, delivered once
    ((_, value),) = world.workflow.successes
    assert value["action"] == "reject" and value["feedback"] == "No answer in time."
    assert value["decidedBy"] == "waitgate:deadline" and value["decidedAt"] == "2026-11-30T10:01:00.000Z"
    assert [v["principal"] for v in value["votes"]] == ["ann"]
    assert world.events("updates").count("interrupt.resolved") == 1
    assert world.payload_of("interrupt.resolved")["resumeValue"] == value
    assert "interrupt.expired" not in world.events() and world.workflow.failures == []
    # And a late vote is refused, a second firing changes nothing
    with pytest.raises(InterruptAlreadyResolvedError):
        world.vote("ben")
    assert world.deadline() == "not-pending"
    assert len(world.workflow.successes) == 1


def test_without_on_deadline_the_task_still_fails_with_interrupt_timed_out(world: World) -> None:
    world.request({**approval(), "timeoutMs": 60_000}, {"steps": [{"afterMs": 1000, "remind": True}]})
    world.clock.advance(minutes=1)
    assert world.deadline() == "expired"
    assert [error for _, error, _ in world.workflow.failures] == ["InterruptTimedOut"]


@pytest.mark.parametrize(
    ("payload", "value"),
    [
        ({**CLARIFICATION, "timeoutMs": 1000}, {"answers": {"region": "eu"}}),
        (
            {
                "kind": "external-event",
                "key": "pay",
                "timeoutMs": 1000,
                "data": {"eventType": "paid", "correlation": {"id": "p1"}},
            },
            {"received": False},
        ),
    ],
)
def test_every_kind_can_default_at_its_deadline(world: World, payload: dict[str, Any], value: Any) -> None:
    world.request(payload, {"onDeadline": {"resolveWith": value}})
    world.clock.advance(seconds=1)
    assert world.deadline() == "resolved"
    assert world.workflow.successes == [("task-1", value)]


def test_a_reminder_of_a_kind_that_names_nobody_is_recorded(world: World) -> None:
    world.request(CLARIFICATION, {"steps": [{"afterMs": 1000, "remind": True}]})
    world.clock.advance(seconds=1)
    assert world.fire(0) == "escalated"
    assert world.events("debug")[-1] == "interrupt.reminded" and world.notifier.notices == []


class RacingStore(MemoryStore):
    """Runs `meanwhile` once, right before the next commit: another writer that got there first."""

    def __init__(self) -> None:
        super().__init__()
        self.meanwhile: Any = None

    def commit(self, change: RunChange) -> None:
        step, self.meanwhile = self.meanwhile, None
        if step is not None:
            step()
        super().commit(change)


def test_a_person_racing_the_deadline_gets_409_and_the_deadline_decides_once() -> None:
    # Given a pending approval whose deadline decides reject, read by alice a moment before it
    world = World()
    world.store = RacingStore()
    world.request({**approval(approversList=["alice"]), "timeoutMs": 60_000}, REJECT_AT_DEADLINE)
    world.clock.advance(seconds=59.999)

    def deadline_fires() -> None:
        world.clock.advance(seconds=0.001)
        assert world.deadline() == "resolved"

    # When the deadline commits between alice's read and her write
    world.store.meanwhile = deadline_fires
    with pytest.raises(InterruptAlreadyResolvedError):
        world.vote("alice")
    # Then exactly one interrupt.resolved, the deadline's, and the workflow got that one answer
    assert world.events().count("interrupt.resolved") == 1
    assert [value["decidedBy"] for _, value in world.workflow.successes] == ["waitgate:deadline"]


def test_a_person_first_leaves_the_deadline_nothing_to_do() -> None:
    world = World()
    world.store = RacingStore()
    world.request({**approval(approversList=["alice"]), "timeoutMs": 60_000}, REJECT_AT_DEADLINE)
    world.clock.advance(seconds=59.999)
    assert world.vote("alice").status == "resolved"
    world.clock.advance(seconds=0.001)
    assert world.deadline() == "not-pending"
    assert world.events().count("interrupt.resolved") == 1
    assert [value["decidedBy"] for _, value in world.workflow.successes] == ["alice"]


def test_the_host_default_applies_unless_the_task_opts_out() -> None:
    world = World(defaults={"*": {"steps": [{"afterMs": 1000, "remind": True}]}})
    world.request(approval(approversList=["alice"]))
    assert world.store.interrupts[(RUN, NODE)].escalation == {"steps": [{"afterMs": 1000, "remind": True}]}
    assert world.scheduler.steps() != []
    # an explicit empty policy means no escalation at all
    other = World(defaults=world.defaults)
    other.request(approval(approversList=["alice"]), {})
    assert other.store.interrupts[(RUN, NODE)].escalation is None and other.scheduler.steps() == []


def test_a_take_over_keeps_the_policy_and_schedules_nothing_new(world: World) -> None:
    world.request(approval(approversList=["alice"]), CAROL_AT_ONE_HOUR)
    made = dict(world.scheduler.schedules)
    assert (
        world.request(approval(approversList=["alice"]), CAROL_AT_ONE_HOUR, token="task-2").status
        == "taken-over"
    )
    assert world.scheduler.schedules == made
    record = world.store.interrupts[(RUN, NODE)]
    assert (record.task_token, record.escalation) == ("task-2", CAROL_AT_ONE_HOUR)
