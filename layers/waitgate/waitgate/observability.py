"""Every handler's invocation, observed (docs/operations.md): `@observed` under the Logger's decorator.

- Its context is its own: the correlation keys the use cases set (runId, nodeId, interruptId, tenantId)
  and the API Gateway request id (`apiRequestId`) live in a copy of the context, so they are on every
  log line of this invocation and of no other.
- In a Lambda environment with tracing on, the invocation is one Powertools Tracer subsegment
  (`## lambda_handler`), with the AWS calls under it and the annotations `kind` and `runId`; the X-Ray
  SDK loads on the first traced invocation, never at import (waitgate.adapters.xray_tracing).

Metrics are the use cases' own (waitgate.telemetry): nothing here counts.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from waitgate.adapters import xray_tracing

Result = TypeVar("Result")
Handler = Callable[[Any, Any], Result]


def observed(handler: Handler[Result]) -> Handler[Result]:
    traced: list[Handler[Result]] = []

    def run(event: Any, context: Any) -> Result:
        from waitgate.composition import log_keys

        request_id = api_request_id(event)
        if request_id:
            log_keys({"apiRequestId": request_id})
        if not xray_tracing.tracing_enabled():
            return handler(event, context)
        if not traced:
            traced.append(xray_tracing.traced(handler))
        return traced[0](event, context)

    @functools.wraps(handler)
    def invoke(event: Any, context: Any) -> Result:
        return contextvars.copy_context().run(run, event, context)

    return invoke


def api_request_id(event: Any) -> str | None:
    """API Gateway's own id of the request (HTTP API: requestContext.requestId), if the event has one."""
    raw = getattr(event, "raw_event", event)
    context = raw.get("requestContext") if isinstance(raw, Mapping) else None
    found = context.get("requestId") if isinstance(context, Mapping) else None
    return found if isinstance(found, str) and found else None
