"""How long a workflow may wait on one interrupt, and the backstop that ends a wait nothing ends.

A Step Functions Standard execution lasts at most one year (365 days); a Lambda durable execution's
`ExecutionTimeout` as well. An interrupt's deadline (`timeoutMs`) must therefore come before the year
is out, with room for what happens at a deadline: EventBridge Scheduler's one-minute precision,
Lambda's asynchronous retries of `expire_interrupt` (up to six hours of event age) and the outbox's
retries (an hour of record age). So:

    longest deadline (MAX_TIMEOUT_MS)        363 days
    + margin for the deadline's delivery       1 day
    = every waitForTaskToken Task's backstop  364 days (TimeoutSeconds)  < 365 days, the execution's limit

The backstop fires only when nothing else answered the Task: no resolution, no deadline (an interrupt
without `timeoutMs` nobody answered in 364 days), or an answer that never reached the workflow. The
sample state machines catch its `States.Timeout` (and `States.HeartbeatTimeout`) and fail the run with
`InterruptWaitExceeded` (docs/workflows.md); `sdk.interrupt_task_state` sets it on the states it builds.
"""

from __future__ import annotations

DAY_SECONDS = 24 * 60 * 60
EXECUTION_LIMIT_SECONDS = 365 * DAY_SECONDS  # Step Functions Standard: one year
DEADLINE_MARGIN_SECONDS = DAY_SECONDS
TASK_BACKSTOP_SECONDS = EXECUTION_LIMIT_SECONDS - DAY_SECONDS  # 31,449,600: 364 days
MAX_TIMEOUT_MS = (TASK_BACKSTOP_SECONDS - DEADLINE_MARGIN_SECONDS) * 1000  # 363 days
WAIT_EXCEEDED_ERROR = "InterruptWaitExceeded"
