"""Throughput under contention, on a fresh local stack this bench starts (and stops): 200 suspended
interrupts, each resolved by 8 concurrent callers at once over HTTP (exactly one 200, seven 409), beside
the same DynamoDB and Step Functions calls made directly with boto3 (bench/direct_resolve.py) on 200
other interrupts of the same stack. Interrupts alternate (one waitgate, one direct) so both see the same
table: moto deep-copies every table on each transaction, so its size weighs on both alike."""

from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench.direct_resolve import DirectResolver
from bench.local_stack import BenchStack, Deadline
from bench.report import Row, bound_seconds
from bench.samples import ACCEPT, APPROVAL

GROUP = "throughput"
INTERRUPTS = int(os.environ.get("THROUGHPUT_INTERRUPTS") or 200)
RESOLVERS = 8
WAVE = 20  # interrupts suspended, then resolved, at a time (half over HTTP, half direct)
LIMIT_SECONDS = 600  # when run alone; `make bench` gives it its bound (bench/plan.py)
STOP_RESERVE_SECONDS = 30  # of the bound: the stack's stop, and a wave slower than the last
RATIO_TARGET = 1.5
Attempt = Callable[[str, int], int]  # (run id, resolver index) → HTTP status


@dataclass
class Tally:
    """Statuses, every request's latency, and the wall time of each interrupt's burst."""

    statuses: Counter[int] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    busy_seconds: float = 0.0
    interrupts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    @property
    def per_second(self) -> float:
        return self.statuses[200] / self.busy_seconds

    @property
    def exact(self) -> bool:
        return self.statuses == Counter({200: self.interrupts, 409: self.interrupts * (RESOLVERS - 1)})


def burst(pool: ThreadPoolExecutor, attempt: Attempt, run_id: str, tally: Tally) -> None:
    """RESOLVERS callers released together by a barrier; the burst lasts until the last one answers."""
    gate = threading.Barrier(RESOLVERS)

    def one(index: int) -> tuple[int, float, float]:
        gate.wait(timeout=30)
        started = time.perf_counter()
        status = attempt(run_id, index)
        return status, started, time.perf_counter()

    answers = list(pool.map(one, range(RESOLVERS)))
    with tally.lock:
        for status, started, ended in answers:
            tally.statuses[status] += 1
            tally.latencies.append(ended - started)
        tally.busy_seconds += max(a[2] for a in answers) - min(a[1] for a in answers)
        tally.interrupts += 1


def suspend(stack: BenchStack, run_ids: list[str], deadline: Deadline) -> None:
    """Start one execution of the generic interrupt workflow per id; wait until each is suspended."""
    sfn = stack.client("stepfunctions")
    machine = stack.state_machine("interrupt")
    reader = stack.jwt("bench-reader", "runs:read")

    def start(run_id: str) -> None:
        sfn.start_execution(stateMachineArn=machine, name=run_id, input=json.dumps({"interrupt": APPROVAL}))

    def waiting(run_id: str) -> bool:
        answer = stack.request("GET", f"/runs/{run_id}", token=reader)
        return answer.status == 200 and answer.json()["status"] == "waiting-approval"

    with ThreadPoolExecutor(RESOLVERS) as pool:
        list(pool.map(start, run_ids))
        pending = list(run_ids)
        while pending:
            deadline.check()
            pending = [
                run_id for run_id, ok in zip(pending, pool.map(waiting, pending), strict=True) if not ok
            ]
            time.sleep(0.25 if pending else 0)


def attempts(stack: BenchStack) -> tuple[Attempt, Attempt]:
    """Resolve attempts: over HTTP by a caller with its own JWT, and the direct boto3 baseline."""
    tokens = [stack.jwt(f"resolver-{index}", "approvals:respond") for index in range(RESOLVERS)]
    direct = DirectResolver(stack.client("dynamodb"), stack.client("stepfunctions"), stack.table_name)

    def over_http(run_id: str, index: int) -> int:
        path = f"/runs/{run_id}/interrupts/Interrupt"
        return stack.request("POST", path, {"resumeValue": ACCEPT}, token=tokens[index]).status

    def directly(run_id: str, index: int) -> int:
        return direct.resolve(run_id, f"resolver-{index}", ACCEPT)

    return over_http, directly


def forget(dynamodb: Any, table_name: str, run_ids: list[str]) -> None:
    """Delete finished runs' items (as a TTL would), so moto's whole-table copy per transaction stays
    that of a table of one wave: ~25 ms per 1,000 items per transaction here, which would otherwise
    dominate (DynamoDB's own cost does not depend on the table's size)."""
    for run_id in run_ids:
        pk = {":pk": {"S": f"RUN#default#{run_id}"}}
        found = dynamodb.query(
            TableName=table_name, KeyConditionExpression="pk = :pk", ExpressionAttributeValues=pk
        )["Items"]
        for start in range(0, len(found), 25):
            deletes = [
                {"DeleteRequest": {"Key": {"pk": i["pk"], "sk": i["sk"]}}} for i in found[start : start + 25]
            ]
            dynamodb.batch_write_item(RequestItems={table_name: deletes})


def measure(stack: BenchStack, deadline: Deadline, stop_by: float) -> tuple[Tally, Tally]:
    """Waves of WAVE interrupts, alternating sides; each wave's runs are forgotten before the next. No
    wave starts that would not end by `stop_by` (monotonic) at the pace of the last: the bench then
    reports the waves it measured."""
    ours, direct = Tally(), Tally()
    over_http, directly = attempts(stack)
    run_ids = [f"bench-{index:04d}" for index in range(2 * INTERRUPTS)]
    done: list[str] = ["warm-0", "warm-1"]
    suspend(stack, done, deadline)
    with ThreadPoolExecutor(RESOLVERS) as pool:
        burst(pool, over_http, done[0], Tally())  # warm-up: handlers imported, clients built
        burst(pool, directly, done[1], Tally())
        wave_seconds = 0.0
        for start in range(0, len(run_ids), WAVE):
            began = time.monotonic()
            if began + 1.25 * wave_seconds > stop_by:
                break
            wave = run_ids[start : start + WAVE]
            suspend(stack, wave, deadline)
            forget(stack.client("dynamodb"), stack.table_name, done)
            for index, run_id in enumerate(wave):
                deadline.check()
                burst(
                    pool,
                    over_http if index % 2 == 0 else directly,
                    run_id,
                    ours if index % 2 == 0 else direct,
                )
            done = wave
            wave_seconds = time.monotonic() - began
    return ours, direct


def rows_of(name: str, tally: Tally) -> list[Row]:
    counts = f"{tally.statuses[200]} × 200, {tally.statuses[409]} × 409" + "".join(
        f", {n} × {s}" for s, n in sorted(tally.statuses.items()) if s not in (200, 409)
    )
    expected = f"{tally.interrupts}×200 {tally.interrupts * (RESOLVERS - 1)}×409"
    return [
        Row(GROUP, f"{name}: resolves/s ({RESOLVERS} callers per interrupt)", tally.per_second, "/s"),
        Row(
            GROUP, f"{name}: p50 latency of all {len(tally.latencies)} requests", tally.percentile(0.5), "ms"
        ),
        Row(GROUP, f"{name}: p99 latency", tally.percentile(0.99), "ms"),
        Row(GROUP, f"{name}: answers", tally.statuses[200], "× 200", expected, tally.exact, counts),
    ]


def run() -> list[Row]:
    bound = bound_seconds(LIMIT_SECONDS)
    stop_by = time.monotonic() + bound - STOP_RESERVE_SECONDS
    deadline = Deadline(
        bound - STOP_RESERVE_SECONDS / 2, f"throughput ({INTERRUPTS} + {INTERRUPTS} interrupts)"
    )
    with BenchStack() as stack:
        ours, direct = measure(stack, deadline, stop_by)
    by_throughput = direct.per_second / ours.per_second
    by_p50 = ours.percentile(0.5) / direct.percentile(0.5)
    target = f"≤ {RATIO_TARGET}"
    measured = f"{ours.interrupts} + {direct.interrupts} interrupts"
    if ours.interrupts < INTERRUPTS:
        measured += f" of {INTERRUPTS} + {INTERRUPTS} (stopped by its bound, {bound:.0f} s)"
    note = f"{measured}; one fresh local stack for this bench; moto server, in-process handlers, one host"
    return [
        *rows_of("waitgate over HTTP", ours),
        *rows_of("direct boto3 calls", direct),
        Row(
            GROUP,
            "waitgate/direct: time per resolve (1/throughput)",
            by_throughput,
            "×",
            target,
            by_throughput <= RATIO_TARGET,
            note,
        ),
        Row(GROUP, "waitgate/direct: p50 latency", by_p50, "×", target, by_p50 <= RATIO_TARGET),
    ]


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
