"""reconcileInterrupts — invoked on a schedule (ReconcilePeriodMinutes, docs/durability.md).

Event: the schedule's input {periodSeconds, graceSeconds}. One pass over the sparse index of what is
owed: delivers again what was resolved but not delivered, expires what is past its deadline, cancels
what waits on a run that ended, announces what nobody was told. Answers the pass's counts.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.service.reconcile import reconcile
from waitgate.wiring.observability import observed
from waitgate.wiring.reconcile_composition import reconcile_dependencies

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    report = reconcile(reconcile_dependencies(event if isinstance(event, dict) else {}))
    if report.examined:  # a pass that found nothing owed says nothing (locally it runs every second)
        logger.info("reconcile pass", extra=report.to_json())
    return report.to_json()
