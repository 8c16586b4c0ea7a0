"""The lookup from a Step Functions execution (or a Lambda durable execution) to the run it carries.

An "Execution Status Change" event names the execution (its name is the runId by default) but not
the tenant. The first request of a run writes the link in its own transaction, with the execution's
ARN when the Task passes `$$.Execution.Id` as `executionArn` (then only that execution can end the run).
"""

from __future__ import annotations

from waitgate.run.records import ExecutionLinkRef, GuardedItem, RunRef

EXECUTION_LINK = "execution-link"


DURABLE_EXECUTION = "/durable-execution/"


def execution_name_of(run: RunRef, execution_arn: str | None) -> str:
    """arn:aws:states:<region>:<account>:execution:<stateMachine>:<name> → name, and a Lambda durable
    execution's arn:aws:lambda:…:function:<fn>:<qualifier>/durable-execution/<name>/<id> → name;
    else the runId."""
    if execution_arn and DURABLE_EXECUTION in execution_arn:
        return execution_arn.split(DURABLE_EXECUTION, 1)[1].split("/", 1)[0]
    if execution_arn and execution_arn.count(":") >= 7:
        return execution_arn.rsplit(":", 1)[1]
    return run.run_id


def execution_link_guard(run: RunRef, execution_arn: str | None, linked_at: str) -> GuardedItem:
    """Written once, with the run's first interrupt (the run's snapshot is new in that transaction)."""
    item = {"tenantId": run.tenant_id, "runId": run.run_id, "linkedAt": linked_at}
    if execution_arn:
        item["executionArn"] = execution_arn
    return GuardedItem(
        ExecutionLinkRef(execution_name_of(run, execution_arn), run),
        EXECUTION_LINK,
        expect=None,
        put=item,
    )
