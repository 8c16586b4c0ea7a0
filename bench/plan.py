"""How long each `make bench` module may take, and the sample counts that let the whole run fit.

`make bench` must finish on 2 quiet cores in RUN_SECONDS (25 minutes), and on a busy machine too: each
module runs within its own bound (`bench/bounded.py` stops it there and records a row saying so), and
the run within its total. A module's counts are scaled down here, as environment defaults its own
variables read (a variable already set wins, so `SOAK_RUNS=1000 python -m bench chaos_soak` is the full
soak); the rows say the counts they measured.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

RUN_SECONDS = 25 * 60
STOP_GRACE_SECONDS = 20.0  # after its bound, a module's process has this long to stop its stacks
DEFAULT_BOUND_SECONDS = 120.0
# A bound is a ceiling for a busy machine, not the time a module takes. Every module but cold_start,
# one at a time through this runner at a load of 3-12 (2026-12-03 14:52-15:14 UTC), took 1,305 s in
# all (887 CPU-s): the longest slack_ack 157 s, throughput 121, stack_costs 116 (90 of them idling),
# inbox 114, first_request 98, races 93, cost 89, cpu 86; the rest 8-66 s (docs/performance.md).


@dataclass(frozen=True)
class Plan:
    bound_seconds: float = DEFAULT_BOUND_SECONDS
    counts: dict[str, str] = field(default_factory=dict)


PLANS: dict[str, Plan] = {
    "package_size": Plan(240),  # the first run builds the template (`sam build`) into .cache
    "cold_start": Plan(180),
    "cost": Plan(330),  # a local stack of its own for the durable engine's histories (bench/cost_durable.py)
    "cpu": Plan(150),  # jsonschema and Powertools validate, 30-55 ms a call, are most of it
    "tokens": Plan(60),
    "scale": Plan(150),
    # seeding the resolved interrupts is most of it: 20,000 (as reconcile's); 100,000 in `-m bench.inbox`
    "inbox": Plan(240, {"WAITGATE_BENCH_INBOX_RESOLVED": "20000"}),
    "throughput": Plan(330, {"THROUGHPUT_INTERRUPTS": "100"}),
    "soak": Plan(180, {"SOAK_INTERRUPTS": "100"}),
    "chaos_soak": Plan(270, {"SOAK_RUNS": "100"}),
    "races": Plan(240, {"RACES": "60", "RACE_BURSTS": "2"}),
    "first_request": Plan(240),  # 30 fresh processes, each importing a handler and making its first call
    "slack_ack": Plan(210),  # 100 clicks, each a fresh process (the first 10 two): stops with those done
    "cli_start": Plan(180),
    # three stacks, each idle 15 s (30 in `python -m bench.stack_costs`)
    "stack_costs": Plan(180, {"WAITGATE_BENCH_IDLE_SECONDS": "15"}),
    "durable_roundtrip": Plan(150),
    "mcp_roundtrip": Plan(150),
}


# The modules that measure in rounds until their bound (throughput, soak) or run longest: `make bench`
# runs them after the others, so that a run short of time loses a soak's last waves, not a whole module.
LAST = ("throughput", "soak", "chaos_soak", "races")


def in_run_order(names: list[str]) -> list[str]:
    return [n for n in names if n not in LAST] + [n for n in LAST if n in names]


def plan_of(name: str) -> Plan:
    """The module's plan; BENCH_BOUND_SECONDS, when set, is every module's bound (`make soak`)."""
    plan = PLANS.get(name, Plan())
    bound = os.environ.get("BENCH_BOUND_SECONDS")
    return Plan(float(bound), plan.counts) if bound else plan


def run_seconds() -> float:
    """The whole run's bound: RUN_SECONDS, or BENCH_RUN_SECONDS when set."""
    return float(os.environ.get("BENCH_RUN_SECONDS") or RUN_SECONDS)
