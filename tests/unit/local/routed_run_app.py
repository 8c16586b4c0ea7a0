"""A function of the test of concurrent invocations (test_lambda_instances.py): our router answering
the runId it was routed on and the one `path_parameter` reads, once every invocation in flight has been
routed (they meet at the barrier their events carry, so the requests really overlap)."""

from __future__ import annotations

from typing import Any

from waitgate.http.resolver import new_http_app, path_parameter
from waitgate.http.router import Response

app = new_http_app()


@app.get("/runs/<runId>")
def routed_run(runId: str) -> Response[dict[str, str]]:
    app.current_event.raw_event["allRouted"].wait()
    return Response(200, "application/json", {"routed": runId, "read": path_parameter(app, "runId")})


def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return app.resolve(event, context)
