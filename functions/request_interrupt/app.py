"""requestInterrupt — invoked by a Step Functions `lambda:invoke.waitForTaskToken` Task.

Event: {taskToken, runId, nodeId, tenantId?, interrupt, configurable?}. The task's output, once the
interrupt is resolved, is the resumeValue. An invalid payload fails the task (InterruptPayloadInvalid).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.composition import request_dependencies
from waitgate.observability import observed
from waitgate.service.request_interrupt import request_from_task_event

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    outcome = request_from_task_event(event, request_dependencies())
    logger.info("interrupt requested", extra={"status": outcome.status, "interruptId": outcome.interrupt_id})
    return {"status": outcome.status, "interruptId": outcome.interrupt_id}
