"""SendTaskFailure as Step Functions does it: the task fails with the error *and the cause* sent.

moto 5.2.5's response handler reads `taskToken` and `error` and drops `cause`, so an execution failed
by `request_interrupt` (InterruptPayloadInvalid, whose cause names the bad member) showed
`"cause": null` locally. Here the handler passes `cause` on to the executing backend, which keeps it.
"""

from __future__ import annotations

import inspect
from typing import Any

from local.patches import replace_attribute


def install() -> None:
    """Patch moto's (private) StepFunctionResponse.send_task_failure; idempotent. Pin moto."""
    from moto.core.responses import EmptyResult
    from moto.stepfunctions.responses import StepFunctionResponse

    def send_task_failure(self: Any) -> Any:
        backend = self.stepfunction_backend
        arguments = {"error": self._get_param("error")}
        if "cause" in inspect.signature(backend.send_task_failure).parameters:
            arguments["cause"] = self._get_param("cause")
        backend.send_task_failure(self._get_param("taskToken"), **arguments)
        return EmptyResult()

    replace_attribute(StepFunctionResponse, "send_task_failure", lambda _original: send_task_failure)
