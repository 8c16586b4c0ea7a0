"""The local Lambda runtime's promise: invocations in flight at once, on separate instances of one
function, never see each other's request, although they share one process (and Powertools)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from local.patches.lambda_runtime import FunctionRegistry, LocalFunction

HERE = Path(__file__).resolve().parent
IN_FLIGHT = 6
BARRIER_BOUND_SECONDS = 120  # a bound on the wait for the others, not a pause: the barrier opens at once


def run_request(run_id: str, all_routed: threading.Barrier) -> dict[str, Any]:
    """API Gateway's payload v2 event of GET /runs/{runId}, carrying the barrier the handler meets at."""
    path = f"/runs/{run_id}"
    return {
        "version": "2.0",
        "routeKey": "GET /runs/{runId}",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {},
        "requestContext": {"http": {"method": "GET", "path": path}, "stage": "$default"},
        "pathParameters": {"runId": run_id},
        "isBase64Encoded": False,
        "allRouted": all_routed,
    }


def test_concurrent_invocations_each_read_their_own_request() -> None:
    # Given one function of our resolver, and six requests of six runs
    registry = FunctionRegistry()
    registry.register(
        LocalFunction(
            "RunFunction",
            "arn:aws:lambda:us-east-1:123456789012:function:RunFunction",
            HERE,
            "routed_run_app.lambda_handler",
            128,
            30,
        )
    )
    runs = [f"run-{number}" for number in range(IN_FLIGHT)]
    all_routed = threading.Barrier(IN_FLIGHT, timeout=BARRIER_BOUND_SECONDS)
    # When all six are in flight at once (each routed before any reads its path parameter)
    with ThreadPoolExecutor(max_workers=IN_FLIGHT) as pool:
        answers = list(
            pool.map(lambda run: registry.invoke("RunFunction", run_request(run, all_routed)), runs)
        )
    # Then each invocation read the runId of its own request, as on Lambda
    assert [answer["statusCode"] for answer in answers] == [200] * IN_FLIGHT
    assert [json.loads(answer["body"]) for answer in answers] == [
        {"routed": run, "read": run} for run in runs
    ]
