"""Workflow on Step Functions: answer waitForTaskToken tasks."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.engine_answers import answer_engine, ask_engine, engine_state
from waitgate.reconciliation import EngineState

Client = Any  # a boto3 Step Functions client

# Step Functions no longer waits for the token: it timed out, was answered, or never existed.
# (moto answers InvalidToken where AWS answers TaskTimedOut for a closed task.)
TASK_GONE_CODES = frozenset({"TaskTimedOut", "TaskDoesNotExist", "InvalidToken"})
# Step Functions will never take this answer: the output is not what it accepts (not JSON, too large).
REFUSED_CODES = frozenset({"InvalidOutput", "ValidationException"})
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

    def execution_state(self, execution_arn: str) -> EngineState | None:
        """DescribeExecution: RUNNING, or how it ended; GONE when Step Functions no longer knows it."""
        described = ask_engine(
            self._client.describe_execution,
            "Step Functions",
            {"ExecutionDoesNotExist"},
            executionArn=execution_arn,
        )
        return engine_state(None if described is None else str(described.get("status", "")))

    def _call(self, operation: Any, **arguments: Any) -> None:
        answer_engine(operation, "Step Functions", TASK_GONE_CODES, REFUSED_CODES, **arguments)
