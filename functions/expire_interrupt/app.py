"""expireInterrupt — invoked by an EventBridge Scheduler one-time schedule at an interrupt's deadline.

Event: {tenantId, runId, nodeId, interruptId}. Commits `expired` unless the interrupt ended first,
then fails the workflow's task with InterruptTimedOut.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.run.records import RunRef, check_node_id
from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
from waitgate.wiring.composition import delivery_dependencies
from waitgate.wiring.observability import observed

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = ExpiryRequest(
        run=RunRef.parse(str(event["tenantId"]), str(event["runId"])),
        node_id=check_node_id(str(event["nodeId"])),
        interrupt_id=str(event["interruptId"]),
    )
    result = expire_interrupt(request, delivery_dependencies())
    logger.info("deadline reached", extra={"interruptId": request.interrupt_id, "result": result})
    return {"result": result}
