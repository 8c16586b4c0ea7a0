"""Powertools Tracer (X-Ray), loaded on a function's first invocation, never at import.

Importing the X-Ray SDK builds its recorder, and the recorder builds a botocore X-Ray client for
centralized sampling (which Lambda never uses: the trace header decides): ~130 ms that the handlers'
cold-start import budget cannot hold (docs/performance.md). So a handler imports nothing of it; the
first invocation in a Lambda environment with tracing on loads it, patches botocore (every DynamoDB,
Step Functions, SNS, Secrets Manager, ... call is then a subsegment) and opens one `## handler`
subsegment per invocation. Outside Lambda (the local stack, tests, POWERTOOLS_TRACE_DISABLED=true)
nothing is loaded at all.
"""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

_TRUTHY = {"1", "true", "yes", "on"}


def tracing_enabled() -> bool:
    """Powertools' own rule (aws_lambda_powertools.tracing.Tracer._is_tracer_disabled), without
    importing it: in a Lambda environment, not under SAM local, and not disabled."""
    if os.environ.get("POWERTOOLS_TRACE_DISABLED", "false").lower() in _TRUTHY:
        return False
    return bool(os.environ.get("LAMBDA_TASK_ROOT")) and not os.environ.get("AWS_SAM_LOCAL")


@cache
def tracer() -> Tracer:
    from aws_lambda_powertools import Tracer

    # botocore only: the AWS calls are what an operator follows; the Slack Web API's HTTP calls
    # would add nothing but their URL.
    return Tracer(patch_modules=["botocore"])


def loaded_tracer() -> Tracer | None:
    """The tracer if this invocation is traced (loaded already), else None; never loads it."""
    return tracer() if tracer.cache_info().currsize and tracing_enabled() else None


def annotate(annotations: dict[str, str]) -> None:
    """Annotations on the invocation's `## handler` subsegment (searchable in X-Ray)."""
    found = loaded_tracer()
    if found is None:
        return
    for key, value in annotations.items():
        found.put_annotation(key=key, value=value)


def traced(handler: Any) -> Any:
    """The handler inside Powertools' `capture_lambda_handler`: no response captured (it may hold a
    resume value), errors by type and message only as the SDK records them."""
    return tracer().capture_lambda_handler(handler, capture_response=False)
