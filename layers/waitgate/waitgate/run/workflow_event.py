"""The event a workflow hands requestInterrupt, checked before anything else happens.

Two bindings: a Step Functions Task's {taskToken, runId, nodeId, ...} and a Lambda durable function's
{callbackId, runId, nodeId, ...} (runId: the durable execution's name; nodeId: the callback's name).
Either way `handle` is what the run waits on (waitgate.run.resume_handles)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from waitgate.errors import InterruptPayloadInvalidError, ValidationFailedError
from waitgate.payloads import json_rules
from waitgate.run.resume_handles import durable_callback_handle
from waitgate.run.size_limits import MAX_INTERRUPT_BYTES

if TYPE_CHECKING:
    from waitgate.run.workflow_event_models import DurableCallbackEvent, WorkflowEvent, WorkflowTaskEvent

CALLBACK_ID_PATTERN = r"^[A-Za-z0-9+/]+={0,2}$"  # AWS's own pattern of a durable callback id
CALLBACK_ID_LIMIT = 1024
_CALLBACK_ID = re.compile(CALLBACK_ID_PATTERN)
_MODELS = ("WorkflowTaskEvent", "DurableCallbackEvent", "WorkflowEvent")


def __getattr__(name: str) -> Any:
    """The models, from their own module on first use (PEP 562): importing this one builds none."""
    if name not in _MODELS:
        raise AttributeError(f"module 'waitgate.run.workflow_event' has no attribute {name!r}")
    from waitgate.run import workflow_event_models

    return getattr(workflow_event_models, name)


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
    from pydantic import ValidationError

    from waitgate.run.workflow_event_models import DurableCallbackEvent, WorkflowTaskEvent

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
