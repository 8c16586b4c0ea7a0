"""StopExecution as Step Functions does it, for executions that wait on a task token.

moto 5.2.5 only flags a stop; an execution blocked in a `.waitForTaskToken` task looks at that flag
after a Timeout, so it stays RUNNING forever and its run never hears it was cancelled. Here a stop
also ends the execution at once as ABORTED, as AWS does; its worker thread is left waiting (a daemon
thread that the token can no longer reach: Step Functions refuses answers to a stopped execution).

And a stopped execution stays ABORTED, as on AWS. The worker, woken by the stop, may still end its
program with an error of moto's own (under load, the chaos soak saw `States.Runtime '>' not supported
between instances of 'dict' and 'int'` on 3 of its first 32 stops) and would then write FAILED over
ABORTED, so the run lifecycle heard the run failed when it had been cancelled.
"""

from __future__ import annotations

import datetime
from typing import Any

from local.patches import moto_news, replace_attribute


def install() -> None:
    """Patch moto's (private) parser Execution.stop; idempotent. Pin moto."""
    from moto.stepfunctions.parser.api import ExecutionStatus
    from moto.stepfunctions.parser.backend.execution import BaseExecutionWorkerCommunication, Execution

    def aborting(original: Any) -> Any:
        def stop(self: Any, stop_date: datetime.datetime, error: str | None, cause: str | None) -> None:
            original(self, stop_date=stop_date, error=error, cause=cause)
            if self.exec_status == ExecutionStatus.RUNNING:
                self.exec_status = ExecutionStatus.ABORTED
                self.stop_date = stop_date
                moto_news.tell(moto_news.EXECUTION_ENDED)

        return stop

    replace_attribute(Execution, "stop", aborting)
    replace_attribute(BaseExecutionWorkerCommunication, "_reflect_execution_status", staying_aborted)


def staying_aborted(original: Any) -> Any:
    """The worker's end is not reflected on an execution a stop already ended (ABORTED is final)."""
    from moto.stepfunctions.parser.api import ExecutionStatus

    def reflect(self: Any) -> None:
        if self.execution.exec_status == ExecutionStatus.ABORTED:
            return
        original(self)

    return reflect
