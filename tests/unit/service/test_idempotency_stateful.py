"""A hypothesis state machine drives one interrupt with random resolves (keyed and not), replays, run
cancellations and clock moves: at most one resolution ever, and every replay equals its original."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tests.fakes.memory import CountingIds, FixedClock, MemoryStore, RecordingWorkflow
from tests.support.hypothesis_profiles import examples
from waitgate.errors import WaitgateError
from waitgate.http.idempotency import idempotency_ref
from waitgate.run.answers import Answer, problem_answer
from waitgate.run.identity import Caller
from waitgate.run.records import RunRef
from waitgate.service.request_interrupt import InterruptRequest, RequestDependencies, request_interrupt
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_answer

RUN = RunRef("default", "run-1")
PAYLOAD = {
    "kind": "approval",
    "key": "gate",
    "timeoutMs": 60_000,
    "data": {
        "artifactId": "a",
        "artifactType": "doc",
        "title": "Ship?",
        "actions": ["accept", "reject", "ask"],
        "requiredApprovals": 2,
    },
}
principals = st.sampled_from(["alice", "bob", "carol"])
actions = st.sampled_from(["accept", "reject", "ask", "publish"])
keys = st.one_of(st.none(), st.sampled_from(["k1", "k2"]))


class OneInterrupt(RuleBasedStateMachine):
    @initialize()
    def suspend(self) -> None:
        self.store, self.workflow, self.clock = MemoryStore(), RecordingWorkflow(), FixedClock()
        request_interrupt(
            InterruptRequest("task", RUN, "Gate", PAYLOAD),
            RequestDependencies(self.store, self.workflow, self.clock, CountingIds()),
        )
        self.first_answers: dict[tuple[str, str], tuple[str, Answer]] = {}

    @rule(principal=principals, action=actions, key=keys)
    def resolve(self, principal: str, action: str, key: str | None) -> None:
        caller = Caller(principal=principal, tenant_id="default", via="jwt")
        value = {"action": action, "decidedAt": "2026-11-30T10:00:00Z"}
        if action == "ask":
            value["feedback"] = "Which region first?"
        event = {"headers": {"Idempotency-Key": key} if key else {}}
        ref = idempotency_ref(event, "resolveInterruptByRun", caller, {"resumeValue": value})
        command = ResolveCommand(run=RUN, node_id="Gate", resume_value=value, caller=caller)
        try:
            answer = resolve_answer(command, ref, ResolveDependencies(self.store, self.workflow, self.clock))
        except WaitgateError as error:
            answer = problem_answer(error)
        if key is None:
            return
        earlier = self.first_answers.get((principal, key))
        if earlier is None:
            if not answer.replayed and answer.status not in {400, 403, 404, 422}:
                self.first_answers[(principal, key)] = (action, answer)
        elif earlier[0] == action:
            assert (answer.status, answer.body) == (earlier[1].status, earlier[1].body)
            assert answer.replayed
        else:
            assert answer.status == 422

    @rule(seconds=st.integers(min_value=1, max_value=40))
    def clock_moves(self, seconds: int) -> None:
        self.clock.advance(seconds=seconds)

    @rule()
    def run_is_cancelled(self) -> None:
        snapshot = self.store.snapshots[RUN]
        self.store.snapshots[RUN] = replace(snapshot, status="cancelled")

    @invariant()
    def at_most_one_resolution(self) -> None:
        assert len(self.workflow.successes) <= 1
        record: Any = self.store.interrupts.get((RUN, "Gate"))
        resolved_events = [e for e in self.store.event_log.get(RUN, []) if e.type == "interrupt.resolved"]
        assert len(resolved_events) <= 1
        assert (record.status == "resolved") == (len(resolved_events) == 1)


TestOneInterrupt = OneInterrupt.TestCase
TestOneInterrupt.settings = settings(max_examples=examples(150), stateful_step_count=25, deadline=None)
