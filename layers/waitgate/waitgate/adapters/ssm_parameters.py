"""Configuration kept in SSM Parameter Store rather than in a function's environment: what only one
function needs (the host's escalation defaults), or what the environment cannot hold (the API's own
URL, which would make the template a cycle). Read once per cold start by the wiring, which caches it.

Lambda allows 4 KB of environment per function; a parameter (a standard one) holds 4 KB on its own.
"""

from __future__ import annotations

from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, is_transient
from waitgate.errors import TemporarilyUnavailableError


def parameter_value(ssm: Any, name: str) -> str:
    """The parameter's value; TemporarilyUnavailableError when SSM throttled or did not answer (the
    caller may try again: a workflow's Task retries it), any other refusal as raised (a bug)."""
    try:
        answer = ssm.get_parameter(Name=name)
    except AWS_CALL_ERRORS as error:
        if is_transient(error):
            raise TemporarilyUnavailableError(f"SSM did not give {name} ({described(error)}).") from error
        raise
    return str(answer["Parameter"]["Value"])
