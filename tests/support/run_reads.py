"""API Gateway events for the read surface (getRun, listRunEvents), from the sample events."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from tests.support.handlers import sample_event


def _addressed(
    event: dict[str, Any], path: str, run_id: str, scope: str, tenant: str | None
) -> dict[str, Any]:
    event["rawPath"] = path
    event["requestContext"]["http"]["path"] = path
    event["pathParameters"] = {"runId": run_id}
    claims = event["requestContext"]["authorizer"]["jwt"]["claims"]
    claims["scope"] = scope
    if tenant is None:
        claims.pop("tenant", None)
    else:
        claims["tenant"] = tenant
    return event


def get_run_event(run_id: str, *, scope: str = "runs:read", tenant: str | None = None) -> dict[str, Any]:
    return _addressed(sample_event("get_run"), f"/runs/{run_id}", run_id, scope, tenant)


def list_events_event(
    run_id: str, *, scope: str = "runs:read", tenant: str | None = None, **query: str | int
) -> dict[str, Any]:
    """query: mode, after, limit (omitted ones are left out of the query string)."""
    event = _addressed(sample_event("list_run_events"), f"/runs/{run_id}/events", run_id, scope, tenant)
    parameters = {name: str(value) for name, value in query.items()}
    event["rawQueryString"] = urlencode(parameters)
    event["queryStringParameters"] = parameters or None
    return event
