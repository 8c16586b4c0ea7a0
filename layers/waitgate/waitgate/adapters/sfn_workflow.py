"""Workflow on Step Functions: answer waitForTaskToken tasks."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, error_code, is_server_error, is_transient
from waitgate.errors import DeliveryFailedError, TaskGoneError

Client = Any  # a boto3 Step Functions client

# Step Functions no longer waits for the token: it timed out, was answered, or never existed.
# (moto answers InvalidToken where AWS answers TaskTimedOut for a closed task.)
TASK_GONE_CODES = frozenset({"TaskTimedOut", "TaskDoesNotExist", "InvalidToken"})
CAUSE_LIMIT = 32_768


class StepFunctionsWorkflow:
    def __init__(self, client: Client) -> None:
        self._client = client

    def send_success(self, task_token: str, output: Any) -> None:
        self._call(
            self._client.send_task_success,
            taskToken=task_token,
            output=json.dumps(output, separators=(",", ":")),
        )

    def send_failure(self, task_token: str, error: str, cause: str) -> None:
        self._call(
            self._client.send_task_failure,
            taskToken=task_token,
            error=error[:256],
            cause=cause[:CAUSE_LIMIT],
        )

    @staticmethod
    def _call(operation: Any, **arguments: Any) -> None:
        try:
            operation(**arguments)
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from error


def _translate(error: Exception) -> Exception:
    code = error_code(error)
    if code in TASK_GONE_CODES:
        return TaskGoneError(f"Step Functions answered {described(error)}.", aws_code=code)
    if is_transient(error) or is_server_error(error):
        return DeliveryFailedError(f"Step Functions answered {described(error)}.", aws_code=code)
    return error
