"""Workflow on Lambda durable functions: answer a durable execution's callback.

SendDurableExecutionCallbackSuccess carries the resume value (JSON) as its result;
SendDurableExecutionCallbackFailure carries the error by name: as ErrorType, and as ErrorData
(`{"error": ...}`), which is what the durable SDK hands the function (waitgate.sdk.durable reads it).
A result over the API's 1 MiB is not sent: ResultTooLargeError (the run fails with
InterruptResultTooLarge instead).
"""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.engine_answers import answer_engine, ask_engine, engine_state
from waitgate.errors import ResultTooLargeError
from waitgate.run.reconciliation import EngineState

Client = Any  # a boto3 Lambda client

# The callback no longer waits: it timed out or was closed (CallbackTimeoutException, AWS), or the
# service does not know it (ResourceNotFoundException: the local runner's answer for a closed one too).
CALLBACK_GONE_CODES = frozenset({"CallbackTimeoutException", "ResourceNotFoundException"})
# Lambda will never take this answer: the result is not what it accepts (too large, malformed).
REFUSED_CODES = frozenset(
    {"InvalidParameterValueException", "RequestEntityTooLargeException", "ValidationException"}
)
MESSAGE_LIMIT = 32_768
RESULT_LIMIT_BYTES = 1_048_576  # SendDurableExecutionCallbackSuccess.Result's max in the service model


def callback_result(output: Any) -> bytes:
    result = json.dumps(output, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(result) > RESULT_LIMIT_BYTES:
        raise ResultTooLargeError(
            f"The resume value is {len(result):,} bytes of JSON; a durable callback takes a result of "
            f"at most {RESULT_LIMIT_BYTES:,}.",
            bytes=len(result),
        )
    return result


class DurableFunctionsWorkflow:
    def __init__(self, client: Client) -> None:
        self._client = client

    def send_success(self, callback_id: str, output: Any) -> None:
        send = self._client.send_durable_execution_callback_success
        self._call(send, CallbackId=callback_id, Result=callback_result(output))

    def send_failure(self, callback_id: str, error: str, cause: str) -> None:
        failure = {
            "ErrorType": error[:256],
            "ErrorMessage": cause[:MESSAGE_LIMIT],
            "ErrorData": json.dumps({"error": error[:256]}, separators=(",", ":")),
        }
        send = self._client.send_durable_execution_callback_failure
        self._call(send, CallbackId=callback_id, Error=failure)

    def execution_state(self, execution_arn: str) -> EngineState | None:
        """GetDurableExecution: RUNNING, or how it ended; GONE when Lambda no longer knows it."""
        described = ask_engine(
            self._client.get_durable_execution,
            "Lambda",
            {"ResourceNotFoundException"},
            DurableExecutionArn=execution_arn,
        )
        return engine_state(None if described is None else str(described.get("Status", "")))

    def _call(self, operation: Any, **arguments: Any) -> None:
        answer_engine(operation, "Lambda", CALLBACK_GONE_CODES, REFUSED_CODES, **arguments)
