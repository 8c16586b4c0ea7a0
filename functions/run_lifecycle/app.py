"""runLifecycle — an EventBridge rule's target for "Step Functions Execution Status Change" and for
Lambda's "Durable Execution Status Change".

SUCCEEDED → completed, FAILED / TIMED_OUT → failed, ABORTED / STOPPED → cancelled: the run's snapshot
says so and its pending interrupts are cancelled, so every link and every run-scoped resolve answers 409.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.data_classes import EventBridgeEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.service.run_lifecycle import ExecutionEnded, end_runs
from waitgate.wiring.composition import lifecycle_dependencies
from waitgate.wiring.observability import observed

logger = Logger()
DURABLE_STATUS_CHANGE = "Durable Execution Status Change"


@event_source(data_class=EventBridgeEvent)
@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: EventBridgeEvent, context: LambdaContext) -> dict[str, Any]:
    ended = execution_ended(event)
    runs = end_runs(ended, lifecycle_dependencies())
    logger.info("execution ended", extra={"status": ended.status, "runs": len(runs)})
    return {"runs": [run.run_id for run in runs]}


def execution_ended(event: EventBridgeEvent) -> ExecutionEnded:
    detail = event.detail
    if event.detail_type == DURABLE_STATUS_CHANGE:
        name, arn = detail["durableExecutionName"], detail["durableExecutionArn"]
    else:
        name, arn = detail["name"], detail["executionArn"]
    return ExecutionEnded(execution_name=str(name), execution_arn=str(arn), status=str(detail["status"]))
