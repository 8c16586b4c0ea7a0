"""recordDecision — invoked by a Step Functions `lambda:invoke` Task (no task token: it answers at once).

Event: {runId, nodeId, tenantId?, decision: {agentId, confidence, ...}, key?, configurable?}.
Records `agent.decided`; below the run's escalation threshold also `node.suspended` and answers
{escalate: true, interrupt} for the workflow's following Choice and Interrupt states; else {escalate: false}.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.service.record_decision import record_decision
from waitgate.wiring.composition import decision_dependencies
from waitgate.wiring.observability import observed

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    answer = record_decision(event, decision_dependencies())
    logger.info("agent decision recorded", extra={"escalate": answer["escalate"]})
    return answer
