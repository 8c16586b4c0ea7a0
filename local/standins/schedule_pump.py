"""Fire due EventBridge Scheduler one-time schedules: moto stores them but never runs them.

Every tick lists the schedules, invokes the target Lambda (through moto's Invoke, so our handler runs
in-process) of each whose `at()` time has come, with the schedule's Input, and deletes it (as
ActionAfterCompletion DELETE does). A schedule's due time is read once per version of it (its
LastModificationDate), so a tick asks for the details of the new and the due ones only, not of
every schedule that waits. A failed invocation is tried again on later ticks, as
Scheduler's retry policy would, up to MAX_ATTEMPTS.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from local.standins.pumps import Pump

if TYPE_CHECKING:
    from local.stack import LocalStack

logger = logging.getLogger(__name__)
_AT = re.compile(r"at\((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\)")
MAX_ATTEMPTS = 20
INTERVAL_SECONDS = 0.25


def due_time(expression: str) -> datetime | None:
    """`at(2026-11-30T10:00:05)` (UTC) → its moment; rate() and cron() → None (not fired here)."""
    match = _AT.fullmatch(expression.strip())
    return datetime.fromisoformat(match.group(1)).replace(tzinfo=UTC) if match else None


class SchedulePump:
    def __init__(self, clients: Any) -> None:
        self._clients = clients
        self._attempts: dict[str, int] = {}
        self._due: dict[tuple[str, str, Any], datetime | None] = {}  # (group, name, version) → due time

    def tick(self) -> None:
        scheduler = self._clients("scheduler")
        now = datetime.now(UTC)
        listed = set()
        for summary in _all_schedules(scheduler):
            name, group = summary["Name"], summary.get("GroupName", "default")
            version = (group, name, summary.get("LastModificationDate"))
            listed.add(version)
            schedule = None
            if version not in self._due:
                schedule = scheduler.get_schedule(Name=name, GroupName=group)
                self._due[version] = due_time(schedule.get("ScheduleExpression", ""))
            due = self._due[version]
            if due is None or due > now:
                continue
            schedule = schedule or scheduler.get_schedule(Name=name, GroupName=group)
            fired = self._fire(schedule)
            given_up = not fired and self._attempts.get(name, 0) >= MAX_ATTEMPTS
            if given_up:
                logger.error("schedule %s: target failed %d times, given up", name, MAX_ATTEMPTS)
            if fired or given_up:
                scheduler.delete_schedule(Name=name, GroupName=group)
                self._attempts.pop(name, None)
        self._due = {version: due for version, due in self._due.items() if version in listed}

    def _fire(self, schedule: dict[str, Any]) -> bool:
        target = schedule["Target"]
        answer = self._clients("lambda").invoke(
            FunctionName=target["Arn"], Payload=target.get("Input", "{}").encode("utf-8")
        )
        if "FunctionError" not in answer:
            return True
        name = schedule["Name"]
        self._attempts[name] = self._attempts.get(name, 0) + 1
        error_type = _error_type(answer)
        logger.warning(
            "schedule %s: target failed with %s (attempt %d), tried again later",
            name,
            error_type,
            self._attempts[name],
        )
        return False


def _error_type(answer: dict[str, Any]) -> str:
    """The handler's errorType (its message may quote the input, so it is not logged)."""
    try:
        return str(json.loads(answer["Payload"].read()).get("errorType", "an error"))
    except (ValueError, AttributeError, KeyError):
        return "an error"


def _all_schedules(scheduler: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    arguments: dict[str, Any] = {}
    while True:
        page = scheduler.list_schedules(**arguments)
        found.extend(page.get("Schedules", []))
        if not page.get("NextToken"):
            return found
        arguments["NextToken"] = page["NextToken"]


def schedule_pump(stack: LocalStack) -> Pump:
    assert stack.context is not None
    return Pump("schedules", SchedulePump(stack.context.clients).tick, INTERVAL_SECONDS)
