"""Load a function's handler the way Lambda does: its own module, one per instance."""

from __future__ import annotations

import importlib.util
import itertools
import json
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
EVENTS = REPO_ROOT / "events"
_instances = itertools.count()


class FakeLambdaContext:
    """The attributes Powertools reads from a real LambdaContext."""

    def __init__(self, function_name: str) -> None:
        self.function_name = function_name
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = 512
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{function_name}"
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{function_name}"
        self.log_stream_name = "local"

    def get_remaining_time_in_millis(self) -> int:
        return 15_000


class Handler:
    """One Lambda instance of a function: a fresh import of its app.py, so instances called at once
    from threads each route on their own app and request, as in the local stack."""

    def __init__(self, function: str) -> None:
        path = REPO_ROOT / "functions" / function / "app.py"
        name = f"functions_{function}_instance_{next(_instances)}"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        self.module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.module)
        self.function = function

    def __call__(self, event: dict[str, Any]) -> Any:
        return self.module.lambda_handler(event, FakeLambdaContext(self.function))


def sample_event(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"{name}.json").read_text(encoding="utf-8"))
    return event


def http_event(
    run_id: str,
    node_id: str,
    body: Any,
    *,
    sub: str = "alice",
    scope: str = "approvals:respond",
    tenant: str | None = None,
    raw_body: str | None = None,
) -> dict[str, Any]:
    """The sample API Gateway event for resolve_by_run, re-addressed and re-bodied."""
    event = sample_event("resolve_by_run")
    event["pathParameters"] = {"runId": run_id, "nodeId": node_id}
    event["rawPath"] = f"/runs/{run_id}/interrupts/{node_id}"
    event["requestContext"]["http"]["path"] = event["rawPath"]
    claims = event["requestContext"]["authorizer"]["jwt"]["claims"]
    claims.update(sub=sub, scope=scope)
    if tenant is None:
        claims.pop("tenant", None)
    else:
        claims["tenant"] = tenant
    event["body"] = raw_body if raw_body is not None else json.dumps(body)
    return event
