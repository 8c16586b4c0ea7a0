"""DeadlineScheduler on EventBridge Scheduler: one one-time `at()` schedule per interrupt deadline.

The schedule (named after the interrupt, in this stack's group) invokes expire_interrupt with
{tenantId, runId, nodeId, interruptId}; it deletes itself after it ran (ActionAfterCompletion DELETE).
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, error_code, is_server_error, is_transient
from waitgate.clock import parse_rfc3339
from waitgate.errors import DeliveryFailedError
from waitgate.records import InterruptRecord

Client = Any  # a boto3 EventBridge Scheduler client


def schedule_name(record: InterruptRecord) -> str:
    """Unique per interrupt (its id is), ≤ 64 characters: a retried request finds it already there."""
    return f"expire-{record.interrupt_id}"[:64]


def at_expression(deadline: str) -> str:
    """at() has whole seconds: the next one at or after the deadline, so it never fires early."""
    moment = parse_rfc3339(deadline)
    if moment.microsecond:
        moment = moment.replace(microsecond=0) + timedelta(seconds=1)
    return f"at({moment.strftime('%Y-%m-%dT%H:%M:%S')})"


class SchedulerDeadlines:
    def __init__(self, client: Client, group_name: str, target_arn: str, role_arn: str) -> None:
        self._client = client
        self._group = group_name
        self._target = target_arn
        self._role = role_arn

    def schedule_expiry(self, record: InterruptRecord) -> None:
        assert record.deadline is not None
        target = {
            "tenantId": record.run.tenant_id,
            "runId": record.run.run_id,
            "nodeId": record.node_id,
            "interruptId": record.interrupt_id,
        }
        try:
            self._client.create_schedule(
                Name=schedule_name(record),
                GroupName=self._group,
                ScheduleExpression=at_expression(record.deadline),
                ScheduleExpressionTimezone="UTC",
                FlexibleTimeWindow={"Mode": "OFF"},
                ActionAfterCompletion="DELETE",
                Target={
                    "Arn": self._target,
                    "RoleArn": self._role,
                    "Input": json.dumps(target, separators=(",", ":")),
                    "RetryPolicy": {"MaximumEventAgeInSeconds": 86_400, "MaximumRetryAttempts": 185},
                },
            )
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ConflictException":
                return  # scheduled by an earlier attempt of the same request
            raise _translate(error) from error


def _translate(error: Exception) -> Exception:
    code = error_code(error)
    if is_transient(error) or is_server_error(error):
        return DeliveryFailedError(f"EventBridge Scheduler answered {described(error)}.", aws_code=code)
    return error
