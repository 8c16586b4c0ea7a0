"""What an operator counts and joins (docs/operations.md, "Metrics" and "Correlation"): pure facts.

The use cases state a fact at the few points that matter — an interrupt requested, a vote, a decision,
an expiry, an escalation step, a refused token, a delivery, a notification — through the `Telemetry`
port (`waitgate.ports`). Each fact knows its one metric: a name, a unit, a value and its dimensions,
kept few and bounded (`kind`, `outcome`; `channel` for notifications), so the number of CloudWatch
metrics never grows with tenants, runs or principals. The tenant rides along as a property of the
EMF line (searchable in the logs, never a dimension). Nothing here holds a token, a link, an address
or a resume value: only names from closed sets, counts and milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from waitgate.payloads.kinds import INTERRUPT_KINDS
from waitgate.run.records import RunRef

NAMESPACE = "waitgate"
KINDS = frozenset(INTERRUPT_KINDS)  # the dimension `kind` takes these, or "other"
ACTIONS = frozenset({"accept", "reject", "refine", "edit-accept", "ask"})
REFUSED_STATUSES = frozenset({401, 403, 404, 409, 410})

Unit = Literal["Count", "Milliseconds"]
RequestOutcome = Literal["requested", "taken-over", "replayed", "rejected"]
DeliveryOutcome = Literal["inline", "outbox", "gone", "refused", "failed"]
NotificationChannel = Literal["topic", "email", "slack"]
NotificationOutcome = Literal["sent", "failed", "skipped", "already-sent"]


def known_kind(kind: object) -> str:
    """The kind as a dimension: one of the eight, else `other` (a rejected payload names anything)."""
    return kind if isinstance(kind, str) and kind in KINDS else "other"


def decision_outcome(resume_value: object, *, by_deadline: bool = False) -> str:
    """What a decision was, as a dimension: `deadline` when the deadline's policy resolved it, the
    action of an approval (or of a low-confidence confirmation), else `answered`."""
    if by_deadline:
        return "deadline"
    action = resume_value.get("action") if isinstance(resume_value, dict) else None
    return action if isinstance(action, str) and action in ACTIONS else "answered"


def milliseconds_between(start: datetime, end: datetime) -> float:
    return max(0.0, (end - start).total_seconds() * 1000)


@dataclass(frozen=True)
class MetricPoint:
    """One value of one metric, as the adapter writes it (one EMF line)."""

    name: str
    unit: Unit
    value: float
    dimensions: tuple[tuple[str, str], ...]
    tenant_id: str = ""
    high_resolution: bool = False
    rollup: bool = False  # also aggregated without its dimensions (a fleet-wide percentile)


@dataclass(frozen=True)
class Requested:
    kind: str
    outcome: RequestOutcome
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        dims = (("kind", known_kind(self.kind)), ("outcome", self.outcome))
        return MetricPoint("InterruptsRequested", "Count", 1, dims, self.tenant_id)


@dataclass(frozen=True)
class Voted:
    """A vote that did not decide (a quorum's 202, or a question); the deciding one is a Decided."""

    kind: str
    action: str
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        action = self.action if self.action in ACTIONS else "other"
        dims = (("kind", known_kind(self.kind)), ("outcome", action))
        return MetricPoint("Votes", "Count", 1, dims, self.tenant_id)


@dataclass(frozen=True)
class Decided:
    """An interrupt resolved (by people, or by its deadline's policy), `waited_ms` after its request."""

    kind: str
    outcome: str
    waited_ms: float
    tenant_id: str = ""

    def metrics(self) -> tuple[MetricPoint, ...]:
        kind = known_kind(self.kind)
        return (
            MetricPoint(
                "InterruptsResolved", "Count", 1, (("kind", kind), ("outcome", self.outcome)), self.tenant_id
            ),
            MetricPoint(
                "TimeToDecision",
                "Milliseconds",
                self.waited_ms,
                (("kind", kind),),
                self.tenant_id,
                high_resolution=True,
                rollup=True,
            ),
        )


@dataclass(frozen=True)
class Expired:
    kind: str
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        dims = (("kind", known_kind(self.kind)), ("outcome", "timed-out"))
        return MetricPoint("InterruptsExpired", "Count", 1, dims, self.tenant_id)


@dataclass(frozen=True)
class Cancelled:
    """A pending interrupt whose run ended (its execution succeeded, failed, timed out or stopped)."""

    kind: str
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        dims = (("kind", known_kind(self.kind)), ("outcome", "run-ended"))
        return MetricPoint("InterruptsCancelled", "Count", 1, dims, self.tenant_id)


@dataclass(frozen=True)
class Escalated:
    kind: str
    outcome: Literal["reminded", "approvers-added"]
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        dims = (("kind", known_kind(self.kind)), ("outcome", self.outcome))
        return MetricPoint("InterruptsEscalated", "Count", 1, dims, self.tenant_id)


@dataclass(frozen=True)
class TokenRefused:
    """A signed link refused (401 invalid, 403 intent, 404, 409 decided, 410 expired): the status
    alone, never anything of the token."""

    status: int

    def metric(self) -> MetricPoint:
        return MetricPoint("TokenRefusals", "Count", 1, (("outcome", str(self.status)),))


@dataclass(frozen=True)
class Delivered:
    """An ending sent to the workflow: inline (right after the commit), by the outbox, to a task
    that was gone, or failed (left to the outbox)."""

    outcome: DeliveryOutcome
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        return MetricPoint("Deliveries", "Count", 1, (("outcome", self.outcome),), self.tenant_id)


@dataclass(frozen=True)
class Notified:
    """One notice's fate: published on the topic (or not), then per channel sent, failed or skipped."""

    channel: NotificationChannel
    outcome: NotificationOutcome
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        dims = (("channel", self.channel), ("outcome", self.outcome))
        return MetricPoint("Notifications", "Count", 1, dims, self.tenant_id)


@dataclass(frozen=True)
class Reconciled:
    """A heal of the reconciler (docs/durability.md): a lost delivery sent again, a missed deadline
    expired, an interrupt of an ended run cancelled, a lost notice sent."""

    heal: Literal["redelivered", "expired", "cancelled", "notified"]
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        return MetricPoint("Reconciled", "Count", 1, (("outcome", self.heal),), self.tenant_id)


@dataclass(frozen=True)
class WebhookAttempted:
    """One attempt of a webhook out (docs/webhooks-out.md): delivered, to be retried, or parked after
    its last attempt (WebhookDeliveriesParkedAlarm)."""

    outcome: Literal["delivered", "retrying", "parked"]
    tenant_id: str = ""

    def metric(self) -> MetricPoint:
        return MetricPoint("WebhookDeliveries", "Count", 1, (("outcome", self.outcome),), self.tenant_id)


Fact = (
    Requested
    | Voted
    | Decided
    | Expired
    | Cancelled
    | Escalated
    | TokenRefused
    | Delivered
    | Notified
    | Reconciled
    | WebhookAttempted
)


def points_of(fact: Fact) -> tuple[MetricPoint, ...]:
    return fact.metrics() if isinstance(fact, Decided) else (fact.metric(),)


@dataclass(frozen=True)
class Correlation:
    """What every later log line of the request (and its trace) carries: ids, never a token."""

    run_id: str
    node_id: str | None = None
    interrupt_id: str | None = None
    kind: str | None = None
    tenant_id: str | None = None

    @classmethod
    def at(
        cls, run: RunRef, node_id: str | None, interrupt_id: str | None = None, kind: str | None = None
    ) -> Correlation:
        return cls(run.run_id, node_id, interrupt_id, kind, run.tenant_id)

    def log_keys(self) -> dict[str, str]:
        keys = {"runId": self.run_id, "nodeId": self.node_id, "interruptId": self.interrupt_id}
        keys["tenantId"] = self.tenant_id
        return {name: value for name, value in keys.items() if value}

    def annotations(self) -> dict[str, str]:
        found = {"runId": self.run_id, "kind": known_kind(self.kind) if self.kind else None}
        return {name: value for name, value in found.items() if value}


class NoTelemetry:
    """Counts nothing: the default of every use case's dependencies (tests that do not look)."""

    def record(self, fact: Fact) -> None:
        return None

    def correlate(self, correlation: Correlation) -> None:
        return None
