"""The handle a suspended run waits on, stored with its interrupt: which engine answers it, and how.

A Step Functions task token is stored as it came; a Lambda durable function's callback id is stored
as `durable-callback:<callbackId>`. Neither a task token (base64) nor a callback id
(`[A-Za-z0-9+/]+={0,2}`) can contain a colon, so the prefix tells the two apart and the interrupts
stored before the second engine existed read as task tokens. Both are secrets: never logged, never
returned.
"""

from __future__ import annotations

from typing import Literal

HandleKind = Literal["task-token", "durable-callback"]
DURABLE_CALLBACK_PREFIX = "durable-callback:"


def durable_callback_handle(callback_id: str) -> str:
    return DURABLE_CALLBACK_PREFIX + callback_id


def handle_kind(handle: str) -> HandleKind:
    return "durable-callback" if handle.startswith(DURABLE_CALLBACK_PREFIX) else "task-token"


def callback_id_of(handle: str) -> str:
    """The durable callback id a `durable-callback:` handle holds."""
    if handle_kind(handle) != "durable-callback":
        raise ValueError("not a durable callback handle")
    return handle.removeprefix(DURABLE_CALLBACK_PREFIX)
