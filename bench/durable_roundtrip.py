"""The second engine's round trip on a local stack this bench starts: how long a Lambda durable
function's `wait_for_interrupt` takes from the Invoke that starts it to its interrupt being recorded,
and from a resolve (run surface, JWT) to the durable execution SUCCEEDED — beside the same resolve of
a Step Functions run. 10 runs of each, one after the other (docs/durable-functions.md)."""

from __future__ import annotations

import json
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

from bench.local_stack import BenchStack, Deadline
from bench.report import Row
from bench.samples import APPROVAL

GROUP = "durable functions"
RUNS = 10
LIMIT_SECONDS = 300
ACCEPT = {"action": "accept", "decidedAt": "2026-12-01T10:00:00Z"}


def _until(done: Callable[[], bool], deadline: Deadline) -> None:
    while not done():
        deadline.check()
        time.sleep(0.005)


def _waiting(stack: BenchStack, run_id: str) -> Callable[[], bool]:
    dynamodb = stack.client("dynamodb")

    def probe() -> bool:
        key = {"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "RUN"}}
        item = dynamodb.get_item(TableName=stack.table_name, Key=key).get("Item")
        return bool(item) and item["status"]["S"] == "waiting-approval"

    return probe


def _resolve(stack: BenchStack, run_id: str, node_id: str, token: str) -> None:
    answer = stack.request("POST", f"/runs/{run_id}/interrupts/{node_id}", {"resumeValue": ACCEPT}, token)
    assert answer.status == 200, answer


def _durable_run(stack: BenchStack, lambdas: Any, token: str, deadline: Deadline) -> tuple[float, float]:
    run_id = f"bench-durable-{uuid.uuid4().hex[:8]}"
    interrupt = {**APPROVAL, "key": run_id, "data": {**APPROVAL["data"], "approversList": ["alice"]}}
    started = time.perf_counter()
    arn = lambdas.invoke(
        FunctionName=f"{stack.description['durable']['functions']['approval']}:live",
        InvocationType="Event",
        DurableExecutionName=run_id,
        Payload=json.dumps({"interrupt": interrupt}),
    )["DurableExecutionArn"]
    _until(_waiting(stack, run_id), deadline)
    asked = time.perf_counter()
    _resolve(stack, run_id, run_id, token)
    _until(lambda: lambdas.get_durable_execution(DurableExecutionArn=arn)["Status"] != "RUNNING", deadline)
    return (asked - started) * 1000, (time.perf_counter() - asked) * 1000


def _workflow_run(stack: BenchStack, token: str, deadline: Deadline) -> tuple[float, float]:
    sfn, run_id = stack.client("stepfunctions"), f"bench-sfn-{uuid.uuid4().hex[:8]}"
    interrupt = {**APPROVAL, "data": {**APPROVAL["data"], "approversList": ["alice"]}}
    started = time.perf_counter()
    arn = sfn.start_execution(
        stateMachineArn=stack.state_machine(), name=run_id, input=json.dumps({"interrupt": interrupt})
    )["executionArn"]
    _until(_waiting(stack, run_id), deadline)
    asked = time.perf_counter()
    _resolve(stack, run_id, "Interrupt", token)
    _until(lambda: sfn.describe_execution(executionArn=arn)["status"] != "RUNNING", deadline)
    return (asked - started) * 1000, (time.perf_counter() - asked) * 1000


def run() -> list[Row]:
    deadline = Deadline(LIMIT_SECONDS, "durable round trip")
    with BenchStack() as stack:
        lambdas = stack.durable_lambdas()
        token = stack.jwt("alice", "approvals:respond")
        durable = [_durable_run(stack, lambdas, token, deadline) for _ in range(RUNS)]
        workflow = [_workflow_run(stack, token, deadline) for _ in range(RUNS)]
    note = f"{RUNS} runs each, one after the other; the first is a cold start"
    rows = []
    for engine, samples in (("durable function", durable), ("Step Functions", workflow)):
        asked = statistics.median(sample[0] for sample in samples)
        resolved = statistics.median(sample[1] for sample in samples)
        rows += [
            Row(GROUP, f"{engine}: start to interrupt recorded, median", asked, "ms", note=note),
            Row(GROUP, f"{engine}: resolve to execution SUCCEEDED, median", resolved, "ms", note=note),
        ]
    return rows
