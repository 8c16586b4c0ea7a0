"""The MCP endpoint's routes in the document (docs/mcp.md): `POST /mcp` and its protected resource
metadata. Their answers are MCP's, not problem+json: the SDK's JSON-RPC messages, and on a missing or
invalid bearer JWT RFC 6750's error with MCP's `WWW-Authenticate` pointer."""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from waitgate import errors as e
from waitgate.http.openapi.operations import Operation, Reply, refusals

MCP_SCOPES: Final = ("interrupts:request", "runs:read", "approvals:respond")  # each tool names its own


class McpRequest(BaseModel):
    """One JSON-RPC 2.0 message of MCP's Streamable HTTP transport (2026-07-28: a request carries its
    protocol version and capabilities in `params._meta`), as the SDK reads it."""

    model_config = ConfigDict(extra="allow")

    jsonrpc: Literal["2.0"]
    method: str = Field(description="e.g. tools/list, tools/call, server/discover")
    id: int | str | None = Field(default=None, description="absent: a notification (202)")
    params: dict[str, JsonValue] | None = None


METADATA = Reply(200, "RFC 9728's protected resource metadata: the resource and its authorization server.")
MCP_OPERATIONS: Final[tuple[Operation, ...]] = (
    Operation(
        "mcp",
        "post",
        "/mcp",
        "MCP (Streamable HTTP, stateless, JSON answers): waitgate's tools (docs/mcp.md)",
        (
            Reply(200, "A JSON-RPC response: a result, or an error whose `data.code` is waitgate's code."),
            Reply(202, "A notification, accepted.", media=()),
            Reply(400, "A JSON-RPC error: not JSON, not a request, invalid params, an unknown version."),
            Reply(
                401,
                "No valid bearer JWT: RFC 6750's error; `WWW-Authenticate` names the metadata.",
                headers=("WWW-Authenticate",),
                required=("WWW-Authenticate",),
            ),
            Reply(404, "A JSON-RPC error: a method this server does not serve."),
            Reply(406, "The request does not accept application/json.", media=()),
            Reply(415, "A JSON-RPC error: the body is not application/json."),
            *refusals(e.PayloadTooLargeError),
        ),
        scope=MCP_SCOPES,
        body="McpRequest",
        tags=("mcp",),
    ),
    Operation(
        "mcpResourceMetadata",
        "get",
        "/.well-known/oauth-protected-resource/mcp",
        "The protected resource metadata of /mcp (RFC 9728)",
        (METADATA,),
        tags=("mcp",),
    ),
    Operation(
        "resourceMetadata",
        "get",
        "/.well-known/oauth-protected-resource",
        "The same, at the host's root (for clients that look there first)",
        (METADATA,),
        tags=("mcp",),
    ),
)
