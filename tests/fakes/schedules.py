"""In-memory ports for escalation tests: one-time schedules, notices and a directory."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from waitgate.approval import Memberships
from waitgate.notices import InterruptNotice
from waitgate.records import InterruptRecord, JSONObject, RunRef


@dataclass(frozen=True)
class Schedule:
    interrupt: InterruptRecord
    step: int | None  # None: the deadline's
    due: datetime | str


@dataclass
class RecordingScheduler:
    """Keeps the schedules a request made, by name (as EventBridge Scheduler would)."""

    schedules: dict[str, Schedule] = field(default_factory=dict)
    deleted: list[str] = field(default_factory=list)

    def schedule_expiry(self, record: InterruptRecord) -> None:
        assert record.deadline is not None
        self.schedules[f"expire-{record.interrupt_id}"] = Schedule(record, None, record.deadline)

    def schedule_step(self, record: InterruptRecord, step: int, due: datetime) -> None:
        self.schedules[f"step{step}-{record.interrupt_id}"] = Schedule(record, step, due)

    def delete_schedules(self, record: InterruptRecord) -> int:
        names = [
            name
            for name, schedule in self.schedules.items()
            if schedule.interrupt.interrupt_id == record.interrupt_id
        ]
        for name in names:
            del self.schedules[name]
        self.deleted += names
        return len(names)

    def steps(self) -> list[tuple[int, datetime | str]]:
        return sorted((s.step, s.due) for s in self.schedules.values() if s.step is not None)


@dataclass
class RecordingNotifier:
    notices: list[InterruptNotice] = field(default_factory=list)
    asks: list[JSONObject] = field(default_factory=list)

    def notify_ask(self, run: RunRef, node_id: str, interrupt_id: str, ask: JSONObject) -> None:
        self.asks.append(ask)

    def notify_interrupt(self, notice: InterruptNotice) -> None:
        self.notices.append(notice)

    def told(self, notice: str | None = None) -> list[str]:
        return [n.recipient for n in self.notices if notice is None or n.notice == notice]


@dataclass
class StaticDirectory:
    """Groups and roles of one tenant: ref -> members."""

    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def memberships(
        self,
        tenant_id: str,
        principal: str,
        groups: tuple[str, ...] | list[str],
        roles: tuple[str, ...] | list[str],
    ) -> Memberships:
        return Memberships(
            groups=frozenset(g for g in groups if principal in self.groups.get(g, ())),
            roles=frozenset(r for r in roles if principal in self.roles.get(r, ())),
        )

    def members(self, tenant_id: str, kind: Literal["group", "role"], ref: str) -> tuple[str, ...]:
        return (self.groups if kind == "group" else self.roles).get(ref, ())
