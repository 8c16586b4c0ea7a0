"""runLifecycle — an EventBridge rule's target for "Step Functions Execution Status Change".

SUCCEEDED → completed, FAILED / TIMED_OUT → failed, ABORTED → cancelled: the run's snapshot says so
and its pending interrupts are cancelled, so every link and every run-scoped resolve answers 409.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.data_classes import EventBridgeEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.composition import lifecycle_dependencies
from waitgate.observability import observed
from waitgate.service.run_lifecycle import ExecutionEnded, end_runs

logger = Logger()


@event_source(data_class=EventBridgeEvent)
@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: EventBridgeEvent, context: LambdaContext) -> dict[str, Any]:
    detail = event.detail
    ended = ExecutionEnded(
        execution_name=str(detail["name"]),
        execution_arn=str(detail["executionArn"]),
        status=str(detail["status"]),
    )
    runs = end_runs(ended, lifecycle_dependencies())
    logger.info("execution ended", extra={"status": ended.status, "runs": len(runs)})
    return {"runs": [run.run_id for run in runs]}
