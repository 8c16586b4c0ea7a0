"""The event a workflow's Task hands requestInterrupt, checked before anything else happens."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from waitgate.errors import InterruptPayloadInvalidError, ValidationFailedError
from waitgate.payloads import json_rules
from waitgate.size_limits import MAX_INTERRUPT_BYTES


class WorkflowTaskEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    task_token: str = Field(alias="taskToken", min_length=1, max_length=8192)
    run_id: str = Field(alias="runId", min_length=1)
    node_id: str = Field(alias="nodeId", min_length=1)
    tenant_id: str | None = Field(default=None, alias="tenantId")
    interrupt: Any
    configurable: dict[str, Any] | None = None
    escalation: Any = None  # the escalation policy beside the interrupt (docs/escalation.md)
    execution_arn: str | None = Field(default=None, alias="executionArn", max_length=2048)


def parse_workflow_event(event: Any) -> WorkflowTaskEvent:
    """Without a task token there is no one to answer: such an event is a wiring bug, raised loudly.

    The JSON rules (depth, finite numbers, Unicode strings) hold before any model looks inside."""
    _check_json(event)
    try:
        return WorkflowTaskEvent.model_validate(event)
    except ValidationError as error:
        fields = sorted({".".join(str(p) for p in e["loc"]) for e in error.errors()})
        # `from None`: pydantic's message quotes the input, and the input holds the task token.
        raise InterruptPayloadInvalidError(f"The task event is malformed at: {', '.join(fields)}.") from None


def _check_json(event: Any) -> None:
    if not isinstance(event, dict):
        return  # the model says what is wrong
    try:
        for member in ("interrupt", "configurable", "escalation"):
            json_rules.check_value(event.get(member), f"$.{member}")
    except ValidationFailedError as error:
        raise InterruptPayloadInvalidError(f"{error.detail} (at {error.extensions['path']})") from None
    size = json_rules.encoded_size(event.get("interrupt"))
    if size > MAX_INTERRUPT_BYTES:
        raise InterruptPayloadInvalidError(
            f"The interrupt payload is {size:,} bytes as JSON; at most {MAX_INTERRUPT_BYTES:,} are allowed."
        )
