"""The AWS error codes every adapter treats alike, and the failures that are worth a retry.

`AWS_CALL_ERRORS` is what an adapter catches around a boto3 call: an answer from AWS (`ClientError`)
or no answer at all (`HTTPClientError`: a connect or read timeout, a dropped connection), both after
botocore's own retries. `is_transient` says whether the same request may succeed if sent again.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError, HTTPClientError

AWS_CALL_ERRORS: tuple[type[Exception], ...] = (ClientError, HTTPClientError)

THROTTLING_CODES = frozenset(
    {
        "ThrottlingException",
        "Throttling",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "TooManyRequestsException",
    }
)


def error_code(error: Any) -> str:
    """The `Error.Code` of a botocore ClientError ("" for a failure without an answer)."""
    response = getattr(error, "response", None) or {}
    code: str = response.get("Error", {}).get("Code", "")
    return code


def is_server_error(error: Any) -> bool:
    response = getattr(error, "response", None) or {}
    status: int = response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    return status >= 500


def is_transient(error: Any) -> bool:
    """Throttled, timed out, or no answer: nothing is known to have happened, a retry may succeed."""
    return isinstance(error, HTTPClientError) or error_code(error) in THROTTLING_CODES


def described(error: Any) -> str:
    """What AWS answered, for a log line or a detail: its code, or the kind of transport failure."""
    return error_code(error) or type(error).__name__
