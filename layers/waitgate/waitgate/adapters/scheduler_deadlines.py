"""DeadlineScheduler on EventBridge Scheduler: one one-time `at()` schedule per interrupt deadline and
one per escalation step (docs/escalation.md).

Each schedule is named after its interrupt, in this stack's group, and deletes itself after it ran
(ActionAfterCompletion DELETE). The deadline's invokes expire_interrupt with
{tenantId, runId, nodeId, interruptId}; a step's invokes escalate_interrupt with the same and `step`.
When an interrupt ends first, `delete_schedules` removes those still waiting (best effort: one that
is left fires and changes nothing). An event Scheduler cannot hand to Lambda (throttled, refused)
is retried by its RetryPolicy and then goes to the target's DeadLetterConfig queue (the template's
ScheduleDeadLetterQueue, alarmed); a failure of the function itself is Lambda's: two retries, then
the function's OnFailure destination. A schedule whose moment has passed is refused by Scheduler:
ScheduleInPastError, and the caller expires the interrupt itself.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, error_code, is_server_error, is_transient
from waitgate.errors import DeliveryFailedError, ScheduleInPastError
from waitgate.run.clock import parse_rfc3339, rfc3339
from waitgate.run.records import InterruptRecord

Client = Any  # a boto3 EventBridge Scheduler client
RETRY_POLICY = {"MaximumEventAgeInSeconds": 86_400, "MaximumRetryAttempts": 185}
CLOCK_SKEW = timedelta(seconds=5)  # a refusal this close to the moment is read as "in the past"


def schedule_name(record: InterruptRecord) -> str:
    """Unique per interrupt (its id is), ≤ 64 characters: a retried request finds it already there."""
    return f"expire-{record.interrupt_id}"[:64]


def step_schedule_name(record: InterruptRecord, step: int) -> str:
    return f"step{step}-{record.interrupt_id}"[:64]


def at_moment(deadline: str) -> datetime:
    """at() has whole seconds: the next one at or after the deadline, so it never fires early."""
    moment = parse_rfc3339(deadline)
    if moment.microsecond:
        moment = moment.replace(microsecond=0) + timedelta(seconds=1)
    return moment


def at_expression(deadline: str) -> str:
    return f"at({at_moment(deadline).strftime('%Y-%m-%dT%H:%M:%S')})"


def schedule_names(record: InterruptRecord) -> list[str]:
    """Every schedule the interrupt was given when it was requested."""
    names = [schedule_name(record)] if record.deadline is not None else []
    steps = (record.escalation or {}).get("steps", [])
    return names + [step_schedule_name(record, index) for index in range(len(steps))]


class SchedulerDeadlines:
    def __init__(
        self,
        client: Client,
        group_name: str,
        target_arn: str,
        role_arn: str,
        escalate_arn: str = "",
        dead_letter_arn: str = "",
    ) -> None:
        self._client = client
        self._group = group_name
        self._target = target_arn
        self._role = role_arn
        self._escalate = escalate_arn
        self._dead_letter = dead_letter_arn

    def schedule_expiry(self, record: InterruptRecord) -> None:
        assert record.deadline is not None
        self._create(schedule_name(record), record.deadline, self._target, _target_input(record))

    def schedule_step(self, record: InterruptRecord, step: int, due: datetime) -> None:
        if not self._escalate:
            raise DeliveryFailedError("No escalation function is configured (ESCALATE_FUNCTION_ARN).")
        target = {**_target_input(record), "step": step}
        self._create(step_schedule_name(record, step), rfc3339(due), self._escalate, target)

    def delete_schedules(self, record: InterruptRecord) -> int:
        deleted = 0
        for name in schedule_names(record):
            try:
                self._client.delete_schedule(Name=name, GroupName=self._group)
            except AWS_CALL_ERRORS as error:
                if error_code(error) == "ResourceNotFoundException":
                    continue  # it ran (and deleted itself), or was deleted before
                raise _translate(error) from error
            deleted += 1
        return deleted

    def _create(self, name: str, moment: str, target_arn: str, target: dict[str, Any]) -> None:
        schedule_target: dict[str, Any] = {
            "Arn": target_arn,
            "RoleArn": self._role,
            "Input": json.dumps(target, separators=(",", ":")),
            "RetryPolicy": RETRY_POLICY,
        }
        if self._dead_letter:
            schedule_target["DeadLetterConfig"] = {"Arn": self._dead_letter}
        try:
            self._client.create_schedule(
                Name=name,
                GroupName=self._group,
                ScheduleExpression=at_expression(moment),
                ScheduleExpressionTimezone="UTC",
                FlexibleTimeWindow={"Mode": "OFF"},
                ActionAfterCompletion="DELETE",
                Target=schedule_target,
            )
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ConflictException":
                return  # scheduled by an earlier attempt of the same request
            if (
                error_code(error) == "ValidationException"
                and at_moment(moment) <= datetime.now(UTC) + CLOCK_SKEW
            ):
                raise ScheduleInPastError(f"Scheduler refused {name}: its moment has passed.") from error
            raise _translate(error) from error


def _target_input(record: InterruptRecord) -> dict[str, Any]:
    return {
        "tenantId": record.run.tenant_id,
        "runId": record.run.run_id,
        "nodeId": record.node_id,
        "interruptId": record.interrupt_id,
    }


def _translate(error: Exception) -> Exception:
    code = error_code(error)
    if is_transient(error) or is_server_error(error):
        return DeliveryFailedError(f"EventBridge Scheduler answered {described(error)}.", aws_code=code)
    return error
