"""The handle a suspended run waits on, stored with its interrupt: which engine answers it, and how.

A Step Functions task token is stored as it came; a Lambda durable function's callback id is stored
as `durable-callback:<callbackId>`; an agent's ask over MCP (docs/mcp.md), which no engine waits on
(the agent reads the outcome itself), as `agent-poll:<its re-entry digest>`. Neither a task token
(base64) nor a callback id (`[A-Za-z0-9+/]+={0,2}`) can contain a colon, so the prefix tells them
apart and the interrupts stored before the second engine existed read as task tokens. Both are
secrets: never logged, never returned.
"""

from __future__ import annotations

from typing import Literal

HandleKind = Literal["task-token", "durable-callback", "agent-poll"]
DURABLE_CALLBACK_PREFIX = "durable-callback:"
AGENT_POLL_PREFIX = "agent-poll:"


def durable_callback_handle(callback_id: str) -> str:
    return DURABLE_CALLBACK_PREFIX + callback_id


def agent_poll_handle(digest: str) -> str:
    return AGENT_POLL_PREFIX + digest


def handle_kind(handle: str) -> HandleKind:
    if handle.startswith(DURABLE_CALLBACK_PREFIX):
        return "durable-callback"
    return "agent-poll" if handle.startswith(AGENT_POLL_PREFIX) else "task-token"


def callback_id_of(handle: str) -> str:
    """The durable callback id a `durable-callback:` handle holds."""
    if handle_kind(handle) != "durable-callback":
        raise ValueError("not a durable callback handle")
    return handle.removeprefix(DURABLE_CALLBACK_PREFIX)
