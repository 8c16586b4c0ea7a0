"""Issue 28's two flakes, reproduced under load and with faults (item 4).

- **The deadline race** (`test_a_resolve_racing_the_deadline_yields_one_interrupt_resolved`, which once
  left an execution RUNNING for 300 s): RACES approvals that reject at a 2 s deadline and remind alice
  at 1 s; alice accepts at a random moment from 1.0 to 2.6 s after the request, so her vote lands
  before, on and after the deadline. Each run must end (within HUNG_SECONDS of its deadline), with one
  `interrupt.resolved`, decided by whoever won (alice when she got 200, the deadline otherwise).
- **The inbox burst** (`test_dev_inbox_lists_all_of_25_notifications_and_finds_each`, which once missed
  notices for 300 s): BURSTS times 25 approvals for alice at once; each run's notice must reach the
  local inbox (inbox.jsonl), once, within HUNG_SECONDS.

All of it beside LOAD CPU-bound processes, with FAULTS injected (local/patches/faults.py) and the
reconciler every RECONCILE seconds. With the reconciler off (RACE_RECONCILE_SECONDS=3600) and only
faults the outbox stands behind, a run left hung is a hop that lost something nothing healed.
Settings: RACES (300), RACE_BURSTS (4), RACE_LOAD (2), RACE_FAULTS, RACE_RECONCILE_SECONDS (5).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bench.fault_stack import RunRecord, cpu_load, events_of, faulty_stack, moment, output_of, struck
from bench.fault_stack import wait_until_ended as ended
from bench.local_stack import BenchStack
from bench.report import Row
from bench.throughput import forget
from local.standins.inbox import InboxLog
from local.state.state_dir import StateDir

RACES = int(os.environ.get("RACES") or 300)
BURSTS = int(os.environ.get("RACE_BURSTS") or 4)
LOAD = int(os.environ.get("RACE_LOAD") or 2)
FAULTS = os.environ.get(
    "RACE_FAULTS",
    "kill_after_commit:0.05,send_task_success:0.05,stream_record:0.03,schedule:0.03,notice:0.05,"
    "scheduler.delete_schedule:0.05",
)
RECONCILE = float(os.environ.get("RACE_RECONCILE_SECONDS") or 5)
HUNG_SECONDS = 60.0
RACERS = 6
DEADLINE_MS = 2000
ESCALATION = {
    "steps": [{"afterMs": 1000, "remind": True}],
    "onDeadline": {"resolveWith": {"action": "reject", "feedback": "No decision in time."}},
}
ACCEPT = {"action": "accept", "decidedAt": "2026-12-03T10:00:00Z"}
COMMITTED = (200, 500)  # 500: her resolver was killed after its commit (kill_after_commit)


def approval(key: str, timeout_ms: int | None = DEADLINE_MS) -> dict[str, Any]:
    data = {
        "artifactId": key,
        "artifactType": "release",
        "title": f"Ship {key}?",
        "actions": ["accept", "reject"],
        "approversList": ["alice"],
    }
    interrupt: dict[str, Any] = {"kind": "approval", "key": "ship", "data": data}
    if timeout_ms is not None:
        interrupt["timeoutMs"] = timeout_ms
    return interrupt


@dataclass
class Race:
    record: RunRecord
    vote: int  # alice's answer: 200 or 500 (her commit landed), 409 or 410 (0: she never got to vote)

    @property
    def problem(self) -> str | None:
        """What went wrong, by name; None: it ended as the invariant says."""
        if not self.record.ended:
            return "hung"
        if self.record.count("interrupt.resolved") != 1:
            return "resolved twice" if self.record.count("interrupt.resolved") > 1 else "not resolved"
        winner = "alice" if self.vote in COMMITTED else "waitgate:deadline"
        output = output_of(self.record.execution) or {}
        return None if output.get("decidedBy") == winner else f"decided by {output.get('decidedBy')}"


class Racer:
    def __init__(self, stack: BenchStack) -> None:
        self.stack = stack
        self.sfn = stack.client("stepfunctions")
        self.machine = stack.state_machine("interrupt")
        self.alice = stack.jwt("alice", "approvals:respond")
        self.reader = stack.jwt("reader", "runs:read")
        self.dice = random.Random()

    def start(self, run_id: str, interrupt: dict[str, Any], escalation: Any = None) -> str:
        document = {"interrupt": interrupt, "escalation": escalation}
        arn: str = self.sfn.start_execution(
            stateMachineArn=self.machine, name=run_id, input=json.dumps(document)
        )["executionArn"]
        return arn

    def race(self, number: int) -> Race:
        run_id = f"race-{number}-{uuid.uuid4().hex[:8]}"
        arn = self.start(run_id, approval(f"race-{number}"), ESCALATION)
        requested = self._requested_at(run_id)
        vote = 0
        if requested is not None:
            time.sleep(max(0.0, requested + self.dice.uniform(1.0, 2.6) - time.time()))
            path = f"/runs/{run_id}/interrupts/Interrupt"
            vote = self.stack.request("POST", path, {"resumeValue": ACCEPT}, token=self.alice).status
        deadline = (requested or time.time()) + DEADLINE_MS / 1000
        execution = ended(self.sfn, arn, max(1.0, deadline + HUNG_SECONDS - time.time()))
        return Race(RunRecord(run_id, execution, events_of(self.stack, self.reader, run_id)), vote)

    def _requested_at(self, run_id: str) -> float | None:
        ends = time.monotonic() + HUNG_SECONDS
        while time.monotonic() < ends:
            events = events_of(self.stack, self.reader, run_id)
            if events:
                return moment(events[0]["time"])
            time.sleep(0.1)
        return None


def bursts(racer: Racer) -> tuple[int, int, int]:
    """(notices missing, notices twice, runs notified by the reconciler) over BURSTS bursts of 25."""
    log = InboxLog(StateDir(racer.stack.state_dir))
    missing = twice = reconciled = 0
    for burst in range(BURSTS):
        run_ids = [f"inbox-{burst}-{n}-{uuid.uuid4().hex[:6]}" for n in range(25)]
        for run_id in run_ids:
            racer.start(run_id, approval(run_id, timeout_ms=None))
        ends = time.monotonic() + HUNG_SECONDS
        while True:
            told = Counter(n.get("runId") for n in log.notices() if n.get("runId") in run_ids)
            if len(told) == len(run_ids) or time.monotonic() > ends:
                break
            time.sleep(0.25)
        missing += len(run_ids) - len(told)
        twice += sum(1 for count in told.values() if count > 1)
        for run_id in run_ids:
            heals = RunRecord(run_id, events=events_of(racer.stack, racer.reader, run_id)).heals()
            reconciled += any(heal == "notified" for heal, _ in heals)
        forget(racer.stack.client("dynamodb"), racer.stack.table_name, run_ids)
    return missing, twice, reconciled


def measure(stack: BenchStack) -> tuple[list[Race], tuple[int, int, int], float]:
    racer = Racer(stack)
    started = time.monotonic()
    races: list[Race] = []
    with ThreadPoolExecutor(RACERS) as pool:
        for start in range(0, RACES, 5 * RACERS):
            wave = list(pool.map(racer.race, range(start, min(RACES, start + 5 * RACERS))))
            races += wave
            forget(stack.client("dynamodb"), stack.table_name, [race.record.run_id for race in wave])
    inbox = bursts(racer)
    return races, inbox, time.monotonic() - started


def run() -> list[Row]:
    with cpu_load(LOAD), faulty_stack(FAULTS, RECONCILE) as stack:
        races, (missing, twice, reconciled), seconds = measure(stack)
        faults = Counter(str(entry["hop"]) for entry in struck(stack))
    problems = Counter(race.problem for race in races if race.problem is not None)
    for race in races:
        if race.problem is not None:  # what the hung ones did, to read (stderr: not the table)
            types = [event["type"] for event in race.record.events]
            status = race.record.execution.get("status")
            print(
                f"races: {race.record.run_id} {race.problem}: vote {race.vote}, {status}, {types}",
                file=sys.stderr,
            )
    won = sum(1 for race in races if race.vote in COMMITTED)
    healed = sum(1 for race in races if race.record.heals())
    note = f"{RACES} races, {LOAD} CPU-bound neighbours, faults {FAULTS or 'none'}"
    note += f", reconciler every {RECONCILE:g} s"
    rows = [
        Row(
            "races",
            "runs hung (not ended a minute after the deadline)",
            problems["hung"],
            "count",
            "= 0",
            problems["hung"] == 0,
            note,
        ),
        Row(
            "races",
            "runs resolved twice",
            problems["resolved twice"],
            "count",
            "= 0",
            problems["resolved twice"] == 0,
        ),
        Row(
            "races",
            "runs decided by the loser",
            sum(v for k, v in problems.items() if k.startswith("decided by")),
            "count",
            "= 0",
            not any(k.startswith("decided by") for k in problems),
        ),
        Row("races", "alice won / the deadline won", won, "count", "", None, f"{won} of {len(races)}"),
        Row("races", "races healed by the reconciler", healed, "count", "", None),
        Row(
            "races",
            "inbox: notices missing (25 at a time)",
            missing,
            "count",
            "= 0",
            missing == 0,
            f"{BURSTS} bursts of 25; {twice} run(s) with two notices; {reconciled} told by the reconciler",
        ),
        Row(
            "races",
            "faults that struck",
            sum(faults.values()),
            "count",
            "",
            None,
            ", ".join(f"{hop} {count}" for hop, count in sorted(faults.items())) or "none",
        ),
        Row("races", "wall time", round(seconds, 1), "s", "", None),
    ]
    for problem, count in sorted(problems.items()):
        if problem not in ("hung", "resolved twice") and not problem.startswith("decided by"):
            rows.append(Row("races", f"runs {problem}", count, "count", "= 0", False))
    return rows
