"""How a workflow engine's answer to a delivery is read, by meaning, for every engine's adapter.

The suspended run no longer waits (the engine names it gone): TaskGoneError, recorded, never retried.
Throttling, timeouts and the engine's own failures: DeliveryFailedError, which the outbox retries.
Anything else is a bug of ours or of the configuration and goes up as it came.
"""

from __future__ import annotations

from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, error_code, is_server_error, is_transient
from waitgate.errors import DeliveryFailedError, TaskGoneError


def answer_engine(operation: Any, engine: str, gone_codes: frozenset[str], **arguments: Any) -> None:
    """Call `operation(**arguments)`, one of `engine`'s send-success/failure calls."""
    try:
        operation(**arguments)
    except AWS_CALL_ERRORS as error:
        raise _by_meaning(error, engine, gone_codes) from error


def _by_meaning(error: Exception, engine: str, gone_codes: frozenset[str]) -> Exception:
    code = error_code(error)
    if code in gone_codes:
        return TaskGoneError(f"{engine} answered {described(error)}.", aws_code=code)
    if is_transient(error) or is_server_error(error):
        return DeliveryFailedError(f"{engine} answered {described(error)}.", aws_code=code)
    return error
