"""Fire due EventBridge Scheduler one-time schedules: moto stores them but never runs them.

Every tick lists the schedules and, for each whose `at()` time has come, invokes the target Lambda
asynchronously (`InvocationType: Event`, as Scheduler does: the handler runs in-process on the
asynchronous-invocation worker, `local.patches.async_invocations`, which retries a failed run twice
and then sends it to the function's OnFailure destination), with the schedule's Input, and deletes
it (as ActionAfterCompletion DELETE does). An invocation Lambda does not accept (the function is
gone, throttled) is Scheduler's to retry: on later ticks, up to the target's RetryPolicy (at most
MAX_ATTEMPTS here), and then to the target's DeadLetterConfig queue, as Scheduler does. A schedule's
due time is read once per version of it (its LastModificationDate), so a tick asks for the details of
the new and the due ones only, not of every schedule that waits.

The pump waits for work: it ticks when a schedule is created or changed (local.patches.moto_news),
when the next schedule it knows of comes due, a quarter of a second after a refused invocation, once
at start (a schedule that came due while the stack was down fires at once), and otherwise every
FALLBACK_SECONDS in case it missed news.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from local.patches import faults, moto_news
from local.standins.pumps import Pump

if TYPE_CHECKING:
    from local.aws_clients import AwsClients

logger = logging.getLogger(__name__)
_AT = re.compile(r"at\((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\)")
MAX_ATTEMPTS = 20
RETRY_SECONDS = 0.25  # between the attempts of an invocation Lambda refused
FALLBACK_SECONDS = 30.0  # between ticks that neither news nor a due time asked for
EARLIEST_WAIT_SECONDS = 0.01  # a due time is whole seconds: a wait that ends just short of it ticks again


def due_time(expression: str) -> datetime | None:
    """`at(2026-11-30T10:00:05)` (UTC) → its moment; rate() and cron() → None (not fired here)."""
    match = _AT.fullmatch(expression.strip())
    return datetime.fromisoformat(match.group(1)).replace(tzinfo=UTC) if match else None


class SchedulePump:
    def __init__(self, clients: Any) -> None:
        self._clients = clients
        self._attempts: dict[str, int] = {}
        self._due: dict[tuple[str, str, Any], datetime | None] = {}  # (group, name, version) → due time

    def tick(self) -> float:
        """Fires what is due; the seconds until the next tick it wants (a due time, or a retry)."""
        scheduler = self._clients("scheduler")
        now = datetime.now(UTC)
        listed = set()
        soonest = FALLBACK_SECONDS
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
                soonest = soonest if due is None else min(soonest, (due - now).total_seconds())
                continue
            schedule = schedule or scheduler.get_schedule(Name=name, GroupName=group)
            error = None if _lost(schedule) else self._fire(schedule)
            attempts = self._attempts.get(name, 0)
            given_up = error is not None and attempts >= attempts_allowed(schedule["Target"])
            if given_up:
                logger.error("schedule %s: target refused %d times, given up", name, attempts)
                self._dead_letter(schedule, error, attempts)
            if error is None or given_up:
                scheduler.delete_schedule(Name=name, GroupName=group)
                self._attempts.pop(name, None)
            else:
                soonest = min(soonest, RETRY_SECONDS)
        self._due = {version: due for version, due in self._due.items() if version in listed}
        return max(EARLIEST_WAIT_SECONDS, soonest)

    def _fire(self, schedule: dict[str, Any]) -> ClientError | None:
        """Hand the event to Lambda; what Lambda answered when it did not take it."""
        target = schedule["Target"]
        try:
            self._clients("lambda").invoke(
                FunctionName=target["Arn"],
                InvocationType="Event",
                Payload=target.get("Input", "{}").encode("utf-8"),
            )
        except ClientError as error:
            name = schedule["Name"]
            self._attempts[name] = self._attempts.get(name, 0) + 1
            code = error.response.get("Error", {}).get("Code", "an error")
            logger.warning(
                "schedule %s: Lambda refused the event: %s (attempt %d)", name, code, self._attempts[name]
            )
            return error
        return None

    def _dead_letter(self, schedule: dict[str, Any], error: ClientError, attempts: int) -> None:
        """What Scheduler sends the target's dead-letter queue: the event, and why in its attributes."""
        queue_arn = schedule["Target"].get("DeadLetterConfig", {}).get("Arn")
        if not queue_arn:
            return
        sqs = self._clients("sqs")
        queue_url = sqs.get_queue_url(QueueName=queue_arn.rsplit(":", 1)[-1])["QueueUrl"]
        details = error.response.get("Error", {})

        def text(value: str) -> dict[str, str]:
            return {"DataType": "String", "StringValue": value or "-"}

        sqs.send_message(
            QueueUrl=queue_url,
            MessageBody=schedule["Target"].get("Input", "{}"),
            MessageAttributes={
                "ERROR_CODE": text(str(details.get("Code", ""))),
                "ERROR_MESSAGE": text(str(details.get("Message", ""))[:1000]),
                "SCHEDULE_ARN": text(str(schedule.get("Arn", ""))),
                "TARGET_ARN": text(str(schedule["Target"]["Arn"])),
                "RETRY_ATTEMPTS": {"DataType": "Number", "StringValue": str(max(0, attempts - 1))},
            },
        )


def _lost(schedule: dict[str, Any]) -> bool:
    """Whether the `schedule` fault loses this invocation (local.patches.faults): deleted unfired, as a
    schedule whose retries Scheduler spent."""
    try:
        run_id = json.loads(schedule["Target"].get("Input") or "{}").get("runId")
    except (ValueError, AttributeError):
        run_id = None
    return faults.strikes("schedule", runId=run_id, schedule=schedule["Name"])


def attempts_allowed(target: dict[str, Any]) -> int:
    """The first try and the target's retries, at most MAX_ATTEMPTS here."""
    retries = int(target.get("RetryPolicy", {}).get("MaximumRetryAttempts", 185))
    return min(MAX_ATTEMPTS, retries + 1)


def _all_schedules(scheduler: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    arguments: dict[str, Any] = {}
    while True:
        page = scheduler.list_schedules(**arguments)
        found.extend(page.get("Schedules", []))
        if not page.get("NextToken"):
            return found
        arguments["NextToken"] = page["NextToken"]


def schedule_pump(clients: AwsClients) -> Pump:
    running = Pump("schedules", SchedulePump(clients).tick, FALLBACK_SECONDS)
    running.final_tick = moto_news.listen(moto_news.SCHEDULES_CHANGED, running.wake)  # as it stops
    running.wake()  # its first tick at once
    return running
