"""The DeadlineScheduler in memory, for the escalation tests: the one-time schedules a request made."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from waitgate.run.records import InterruptRecord


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
