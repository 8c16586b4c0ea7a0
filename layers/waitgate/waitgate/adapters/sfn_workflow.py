"""Workflow on Step Functions: answer waitForTaskToken tasks.

The output is the resume value as compact JSON in UTF-8 (`ensure_ascii=False`): Step Functions counts
its 262,144 in characters, and ASCII escapes (a backslash, `u` and four hex digits per letter) made a
Cyrillic answer three times as long as its UTF-8 bytes: over the limit, and a run that never resumed.
An output over the limit is not sent: ResultTooLargeError, and the run is failed with
InterruptResultTooLarge instead.
"""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.engine_answers import answer_engine, ask_engine, engine_state
from waitgate.errors import ResultTooLargeError
from waitgate.run.reconciliation import EngineState

Client = Any  # a boto3 Step Functions client

# Step Functions no longer waits for the token: it timed out, was answered, or never existed.
# (moto answers InvalidToken where AWS answers TaskTimedOut for a closed task.)
TASK_GONE_CODES = frozenset({"TaskTimedOut", "TaskDoesNotExist", "InvalidToken"})
# Step Functions will never take this answer: the output is not what it accepts (not JSON, too large).
REFUSED_CODES = frozenset({"InvalidOutput", "ValidationException"})
CAUSE_LIMIT = 32_768
OUTPUT_LIMIT_CHARACTERS = 262_144  # SendTaskSuccess.output's max in the service model


def task_output(output: Any) -> str:
    """The resume value as SendTaskSuccess carries it; ResultTooLargeError when Step Functions could not."""
    text = json.dumps(output, ensure_ascii=False, separators=(",", ":"))
    if len(text) > OUTPUT_LIMIT_CHARACTERS:
        raise ResultTooLargeError(
            f"The resume value is {len(text):,} characters of JSON; Step Functions takes a task output "
            f"of at most {OUTPUT_LIMIT_CHARACTERS:,}.",
            characters=len(text),
        )
    return text


class StepFunctionsWorkflow:
    def __init__(self, client: Client) -> None:
        self._client = client

    def send_success(self, task_token: str, output: Any) -> None:
        self._call(
            self._client.send_task_success,
            taskToken=task_token,
            output=task_output(output),
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
