"""The event a workflow hands requestInterrupt, checked before anything else happens.

Two bindings: a Step Functions Task's {taskToken, runId, nodeId, ...} and a Lambda durable function's
{callbackId, runId, nodeId, ...} (runId: the durable execution's name; nodeId: the callback's name).
Either way `handle` is what the run waits on (waitgate.run.resume_handles)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from waitgate.errors import InterruptPayloadInvalidError, ValidationFailedError
from waitgate.payloads import json_rules
from waitgate.run.resume_handles import durable_callback_handle
from waitgate.run.size_limits import MAX_INTERRUPT_BYTES

CALLBACK_ID_PATTERN = r"^[A-Za-z0-9+/]+={0,2}$"  # AWS's own pattern of a durable callback id
CALLBACK_ID_LIMIT = 1024
_CALLBACK_ID = re.compile(CALLBACK_ID_PATTERN)


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


def handle_in(event: Any) -> str | None:
    """The handle a raw event names (to fail it by name when the rest is malformed), or None."""
    if not isinstance(event, dict):
        return None
    token, callback_id = event.get("taskToken"), event.get("callbackId")
    if isinstance(token, str) and token:
        return token
    if not isinstance(callback_id, str) or len(callback_id) > CALLBACK_ID_LIMIT:
        return None
    if _CALLBACK_ID.match(callback_id):
        return durable_callback_handle(callback_id)
    return None


def parse_workflow_event(event: Any) -> WorkflowEvent:
    """Without a task token or callback id there is no one to answer: a wiring bug, raised loudly.

    The JSON rules (depth, finite numbers, Unicode strings) hold before any model looks inside."""
    _check_json(event)
    model: type[WorkflowTaskEvent] | type[DurableCallbackEvent] = (
        DurableCallbackEvent if isinstance(event, dict) and "callbackId" in event else WorkflowTaskEvent
    )
    try:
        return model.model_validate(event)
    except ValidationError as error:
        fields = sorted({".".join(str(p) for p in e["loc"]) for e in error.errors()})
        # `from None`: pydantic's message quotes the input, and the input holds the token or callback id.
        raise InterruptPayloadInvalidError(f"The task event is malformed at: {', '.join(fields)}.") from None


def _check_json(event: Any) -> None:
    if not isinstance(event, dict):
        return  # the model says what is wrong
    try:
        for member in ("interrupt", "configurable", "escalation", "notify"):
            json_rules.check_value(event.get(member), f"$.{member}")
    except ValidationFailedError as error:
        raise InterruptPayloadInvalidError(f"{error.detail} (at {error.extensions['path']})") from None
    size = json_rules.encoded_size(event.get("interrupt"))
    if size > MAX_INTERRUPT_BYTES:
        raise InterruptPayloadInvalidError(
            f"The interrupt payload is {size:,} bytes as JSON; at most {MAX_INTERRUPT_BYTES:,} are allowed."
        )
