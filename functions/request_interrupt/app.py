"""requestInterrupt — invoked by a Step Functions `lambda:invoke.waitForTaskToken` Task, or by a Lambda
durable function's callback submitter (waitgate.sdk.durable).

Event: {taskToken, runId, nodeId, tenantId?, interrupt, configurable?}, or {callbackId, runId, nodeId,
tenantId?, interrupt, configurable?, escalation?}. The task's output (the callback's result), once the
interrupt is resolved, is the resumeValue. An invalid payload fails it (InterruptPayloadInvalid).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.service.request_interrupt import request_from_task_event
from waitgate.wiring.observability import observed
from waitgate.wiring.request_composition import request_dependencies

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    outcome = request_from_task_event(event, request_dependencies())
    logger.info("interrupt requested", extra={"status": outcome.status, "interruptId": outcome.interrupt_id})
    return {"status": outcome.status, "interruptId": outcome.interrupt_id}
