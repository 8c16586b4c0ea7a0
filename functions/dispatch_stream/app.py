"""dispatchStream — the one DynamoDB Streams consumer of the interrupts table (docs/durability.md).

Each record goes to every consumer it is work for, in order: the outbox (deliver every committed ending
not delivered yet), the Slack refresh (every Slack message of a decided interrupt says so), the
schedules' cleanup (an ended interrupt's schedules that have not run are deleted), the webhooks out
(a lifecycle event queued for each subscription naming its type: docs/webhooks-out.md). A consumer that
fails reports its record (ReportBatchItemFailures) and stops the batch there; what the others did on it
is remembered, so the mapping's retry runs only what failed (service/dispatch_stream).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.service.dispatch_stream import dispatch
from waitgate.wiring.observability import observed
from waitgate.wiring.stream_composition import routed, stream_progress

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    outcome = dispatch(routed(event.get("Records", [])), stream_progress())
    for record_id, consumer, error in outcome.failures:
        logger.warning(
            "stream consumer failed", extra={"record": record_id, "consumer": consumer, "error": error}
        )
    for record_id, consumer in outcome.given_up:
        logger.error("stream consumer given up", extra={"record": record_id, "consumer": consumer})
    if outcome.ran:
        logger.info("stream records handled", extra={"ran": [f"{c}:{r}" for r, c in outcome.ran]})
    return {"batchItemFailures": [{"itemIdentifier": record_id} for record_id in outcome.failed]}
