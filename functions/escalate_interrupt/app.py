"""escalateInterrupt — invoked by an EventBridge Scheduler one-time schedule when an escalation step
of an interrupt comes due (docs/escalation.md).

Event: {tenantId, runId, nodeId, interruptId, step}. Records the step (once) with its events, then
reminds those who have not voted and tells the approvers it added; an ended interrupt is left alone.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.run.records import RunRef, check_node_id
from waitgate.service.escalate_interrupt import StepRequest, escalate_interrupt
from waitgate.wiring.channel_composition import escalation_dependencies
from waitgate.wiring.observability import observed

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = StepRequest(
        run=RunRef.parse(str(event["tenantId"]), str(event["runId"])),
        node_id=check_node_id(str(event["nodeId"])),
        interrupt_id=str(event["interruptId"]),
        step=int(event["step"]),
    )
    result = escalate_interrupt(request, escalation_dependencies())
    logger.info(
        "escalation step", extra={"interruptId": request.interrupt_id, "step": request.step, "result": result}
    )
    return {"result": result}
