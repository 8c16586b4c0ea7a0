"""Run the template's scheduled functions (an events rule `rate(...)`: the reconciler) on a short
local period: moto stores such a rule but never fires it.

Every WAITGATE_RECONCILE_SECONDS (default 10) each function with a `Schedule` event is invoked with
the period and the grace set to that many seconds (`{"periodSeconds": N, "graceSeconds": N}`, in place
of the template's ReconcilePeriodMinutes; docs/local-stack.md), so a lost hop heals within seconds
here instead of minutes.
"""

from __future__ import annotations

import json
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from local.standins.pumps import Pump
from local.template.sam_template import load_template

if TYPE_CHECKING:
    from local.template.resources import StackContext

logger = logging.getLogger(__name__)
PERIOD_VARIABLE = "WAITGATE_RECONCILE_SECONDS"
SLOW_PASS_SECONDS = 1.0  # a pass slower than this says how long it took (the soak reads those lines)
SLOW_RUN_LINE = "scheduled function %s took %.1f s"
DEFAULT_PERIOD_SECONDS = 10.0


def period_seconds() -> float:
    """WAITGATE_RECONCILE_SECONDS, a positive number of seconds (default 10)."""
    text = os.environ.get(PERIOD_VARIABLE) or ""
    try:
        value = float(text) if text else DEFAULT_PERIOD_SECONDS
    except ValueError:
        raise ValueError(f"{PERIOD_VARIABLE} must be a number of seconds, not {text!r}") from None
    if value <= 0:
        raise ValueError(f"{PERIOD_VARIABLE} must be more than 0 seconds")
    return value


def scheduled_functions(sam_template: dict[str, Any]) -> list[str]:
    """Logical ids of the functions with a Schedule event (an events rule's `rate(...)`)."""
    return [
        logical_id
        for logical_id, resource in sam_template.get("Resources", {}).items()
        if resource.get("Type") == "AWS::Serverless::Function"
        and any(
            event.get("Type") == "Schedule"
            for event in resource.get("Properties", {}).get("Events", {}).values()
        )
    ]


class ScheduledFunctions:
    def __init__(self, clients: Any, functions: list[str], seconds: float) -> None:
        self._clients = clients
        self._functions = functions
        self._seconds = seconds

    def tick(self) -> None:
        document = {"periodSeconds": self._seconds, "graceSeconds": self._seconds}
        for function in self._functions:
            started = time.monotonic()
            answer = self._clients("lambda").invoke(
                FunctionName=function, Payload=json.dumps(document).encode("utf-8")
            )
            took = time.monotonic() - started
            if took > SLOW_PASS_SECONDS:
                logger.info(SLOW_RUN_LINE, function, took)
            if "FunctionError" in answer:
                logger.warning("scheduled function %s failed; it runs again in %ss", function, self._seconds)


def scheduled_function_pump(context: StackContext) -> Pump:
    seconds = period_seconds()
    functions = [
        str(context.physical_ids[logical_id].ref)
        for logical_id in scheduled_functions(load_template())
        if logical_id in context.physical_ids
    ]
    return Pump("scheduled-functions", ScheduledFunctions(context.clients, functions, seconds).tick, seconds)
