"""How a workflow engine's answer to a delivery is read, by meaning, for every engine's adapter.

The suspended run no longer waits (the engine names it gone): TaskGoneError, recorded, never retried.
Throttling, timeouts and the engine's own failures: DeliveryFailedError, which the outbox retries.
Anything else is a bug of ours or of the configuration and goes up as it came.
"""

from __future__ import annotations

import logging
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, error_code, is_server_error, is_transient
from waitgate.errors import AnswerRefusedError, DeliveryFailedError, TaskGoneError
from waitgate.run.reconciliation import EngineState

TERMINAL_STATES: frozenset[str] = frozenset({"SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED", "STOPPED"})
logger = logging.getLogger(__name__)


def answer_engine(
    operation: Any,
    engine: str,
    gone_codes: frozenset[str],
    refused_codes: frozenset[str] = frozenset(),
    **arguments: Any,
) -> None:
    """Call `operation(**arguments)`, one of `engine`'s send-success/failure calls."""
    try:
        operation(**arguments)
    except AWS_CALL_ERRORS as error:
        raise _by_meaning(error, engine, gone_codes, refused_codes) from error


def _by_meaning(
    error: Exception, engine: str, gone_codes: frozenset[str], refused_codes: frozenset[str]
) -> Exception:
    code = error_code(error)
    if code in gone_codes:
        return TaskGoneError(f"{engine} answered {described(error)}.", aws_code=code)
    if code in refused_codes:
        return AnswerRefusedError(f"{engine} answered {described(error)}.", aws_code=code)
    if is_transient(error) or is_server_error(error):
        return DeliveryFailedError(f"{engine} answered {described(error)}.", aws_code=code)
    return error


def ask_engine(operation: Any, engine: str, gone_codes: set[str], **arguments: Any) -> dict[str, Any] | None:
    """Call a read of `engine` (DescribeExecution, GetDurableExecution): its answer; `{"status": "GONE"}`
    when the engine no longer knows the execution; None when it cannot tell (not permitted, an ARN
    it refuses); DeliveryFailedError when it should be asked again (throttled, a 5xx)."""
    try:
        answer: dict[str, Any] = operation(**arguments)
    except AWS_CALL_ERRORS as error:
        code = error_code(error)
        if code in gone_codes:
            return {"status": "GONE", "Status": "GONE"}
        if is_transient(error) or is_server_error(error):
            raise DeliveryFailedError(f"{engine} answered {described(error)}.", aws_code=code) from error
        # Not permitted (not this stack's execution), or an ARN the engine does not take: nobody can
        # tell from here. The interrupt is left to its deadline; the pass goes on with the others.
        logger.warning("execution state unknown", extra={"engine": engine, "code": code or "NoAnswer"})
        return None
    return answer


def engine_state(status: str | None) -> EngineState | None:
    """An engine's status word as the reconciler reads it (RUNNING and PENDING: still running)."""
    if status is None:
        return None
    if status == "GONE":
        return "GONE"
    if status in TERMINAL_STATES:
        return status  # type: ignore[return-value]
    return "running"
