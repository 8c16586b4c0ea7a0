"""The AWS error codes every adapter treats alike."""

from __future__ import annotations

from typing import Any

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
    """The `Error.Code` of a botocore ClientError."""
    response = getattr(error, "response", None) or {}
    code: str = response.get("Error", {}).get("Code", "")
    return code


def is_server_error(error: Any) -> bool:
    response = getattr(error, "response", None) or {}
    status: int = response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    return status >= 500
