"""Every handler's invocation, observed (docs/operations.md): `@observed` under the Logger's decorator.

- An HTTP request's answer is one log line (`answered`: its route key and status).
- Its context is its own: the correlation keys the use cases set (runId, nodeId, interruptId, tenantId)
  and the API Gateway request id (`apiRequestId`) live in a copy of the context, so they are on every
  log line of this invocation and of no other.
- In a Lambda environment with tracing on, the invocation is one Powertools Tracer subsegment
  (`## lambda_handler`), with the AWS calls under it and the annotations `kind` and `runId`; the X-Ray
  SDK loads on the first traced invocation, never at import (waitgate.adapters.xray_tracing).

Metrics are the use cases' own (waitgate.run.telemetry): nothing here counts.
"""

from __future__ import annotations

import contextvars
import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from waitgate.adapters import xray_tracing

logger = logging.getLogger(__name__)
Result = TypeVar("Result")
Handler = Callable[[Any, Any], Result]


def observed(handler: Handler[Result]) -> Handler[Result]:
    traced: list[Handler[Result]] = []

    def run(event: Any, context: Any) -> Result:
        from waitgate.wiring.composition import log_keys

        request_id = api_request_id(event)
        if request_id:
            log_keys({"apiRequestId": request_id})
        if not xray_tracing.tracing_enabled():
            answer = handler(event, context)
        else:
            if not traced:
                traced.append(xray_tracing.traced(handler))
            answer = traced[0](event, context)
        if request_id:
            _answered(event, answer)
        return answer

    @functools.wraps(handler)
    def invoke(event: Any, context: Any) -> Result:
        return contextvars.copy_context().run(run, event, context)

    return invoke


def _answered(event: Any, answer: Any) -> None:
    """One line per HTTP request, with the ids the request's use case set: its route (the template's,
    `POST /interrupts/{token}`: never the path, which may hold a token) and its status."""
    raw = getattr(event, "raw_event", event)
    status = answer.get("statusCode") if isinstance(answer, Mapping) else None
    logger.info("answered", extra={"route": raw.get("routeKey"), "status": status})


def api_request_id(event: Any) -> str | None:
    """API Gateway's own id of the request (HTTP API: requestContext.requestId), if the event has one."""
    raw = getattr(event, "raw_event", event)
    context = raw.get("requestContext") if isinstance(raw, Mapping) else None
    found = context.get("requestId") if isinstance(context, Mapping) else None
    return found if isinstance(found, str) and found else None
