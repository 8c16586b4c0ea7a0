"""The two bindings' event models (waitgate.run.workflow_event checks an event with them).

A module of their own so that a function's import does not build them: pydantic and these models load
with the first event requestInterrupt checks (docs/performance.md, "Cold start as deployed")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from waitgate.run.resume_handles import durable_callback_handle
from waitgate.run.workflow_event import CALLBACK_ID_LIMIT, CALLBACK_ID_PATTERN


class WorkflowTaskEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    task_token: str = Field(alias="taskToken", min_length=1, max_length=8192)
    run_id: str = Field(alias="runId", min_length=1)
    node_id: str = Field(alias="nodeId", min_length=1)
    tenant_id: str | None = Field(default=None, alias="tenantId")
    interrupt: Any
    configurable: dict[str, Any] | None = None
    escalation: Any = None  # the escalation policy beside the interrupt (docs/escalation.md)
    notify: Any = None  # who is asked, beside the interrupt (waitgate.run.asked)
    execution_arn: str | None = Field(default=None, alias="executionArn", max_length=2048)

    @property
    def handle(self) -> str:
        return self.task_token


class DurableCallbackEvent(BaseModel):
    """What `waitgate.sdk.durable.wait_for_interrupt`'s submitter sends (docs/durable-functions.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    callback_id: str = Field(
        alias="callbackId", min_length=1, max_length=CALLBACK_ID_LIMIT, pattern=CALLBACK_ID_PATTERN
    )
    run_id: str = Field(alias="runId", min_length=1)
    node_id: str = Field(alias="nodeId", min_length=1)
    tenant_id: str | None = Field(default=None, alias="tenantId")
    interrupt: Any
    configurable: dict[str, Any] | None = None
    escalation: Any = None
    notify: Any = None
    execution_arn: str | None = Field(default=None, alias="executionArn", max_length=2048)

    @property
    def handle(self) -> str:
        return durable_callback_handle(self.callback_id)


WorkflowEvent = WorkflowTaskEvent | DurableCallbackEvent
