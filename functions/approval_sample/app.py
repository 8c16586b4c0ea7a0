"""approvalSample — a Lambda durable function that suspends on an approval waitgate hosts and returns
the decision (docs/durable-functions.md).

Input: {interrupt: <approval payload>, tenantId?, escalation?, notify?}; the execution's name is the run's
id.
Output: the decision, as the resume value itself — the same JSON the generic Step Functions workflow's
output holds for the same decision. A deadline fails the execution with InterruptTimedOut; an invalid
payload with InterruptPayloadInvalid.
"""

from __future__ import annotations

from typing import Any

from aws_durable_execution_sdk_python.context import DurableContext
from aws_durable_execution_sdk_python.execution import durable_execution

from waitgate.sdk import ApprovalDecision
from waitgate.sdk.durable import wait_for_interrupt


@durable_execution
def lambda_handler(event: dict[str, Any], context: DurableContext) -> dict[str, Any]:
    interrupt = event["interrupt"]
    if not isinstance(interrupt, dict) or interrupt.get("kind") != "approval":
        raise TypeError("the sample asks for approvals: its interrupt's kind must be approval")
    decision: dict[str, Any] = wait_for_interrupt(
        context,
        interrupt,
        tenant_id=event.get("tenantId"),
        escalation=event.get("escalation"),
        notify=event.get("notify"),
        raw=True,
    )
    ApprovalDecision.from_resume(decision)  # an approval's resume value, or ResumeValueError
    return decision
