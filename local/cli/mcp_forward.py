"""`waitgate mcp`: an MCP server on stdio (for desktop clients) that forwards every tool listing and
call to a stack's `POST /mcp`: the running local stack (with a JWT of its issuer), or `--api URL`
(with the bearer token you give). Both ends are the official SDK's: a low-level Server on stdio, a
Client over Streamable HTTP (docs/mcp.md)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

DESCRIPTION = """\
Serve waitgate's MCP tools on stdin/stdout for a desktop MCP client, forwarding each call to a
stack's /mcp. Without --api: the running local stack, as --sub with --scope (a JWT of its issuer).
With --api: that stack, with the bearer token in --token or WAITGATE_MCP_TOKEN. Only MCP goes to
stdout; what goes wrong goes to stderr."""
EXAMPLE = """\
example (a desktop client's server entry runs this command):
  waitgate mcp --sub agent-7
  waitgate mcp --api https://abc123.execute-api.eu-west-1.amazonaws.com"""
LOCAL_SCOPES = "interrupts:request runs:read"
TOKEN_VARIABLE = "WAITGATE_MCP_TOKEN"  # noqa: S105 (the variable's name, not a token)


def add_mcp_parser(commands: Any) -> None:
    command = commands.add_parser(
        "mcp",
        help="serve waitgate's MCP tools on stdio, forwarded to a stack's /mcp",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument("--api", help="a deployed stack's API URL (default: the running local stack)")
    command.add_argument("--token", help=f"the bearer token for --api (default: ${TOKEN_VARIABLE})")
    command.add_argument("--sub", default="agent", help="local stack only: the agent's principal")
    command.add_argument("--scope", default=LOCAL_SCOPES, help="local stack only: its scopes")
    command.add_argument("--tenant", help="local stack only: its tenant (default: the tenant `default`)")
    command.add_argument("--ttl", type=int, default=8 * 3600, help="local stack only: the JWT's lifetime, s")


def run_mcp(arguments: argparse.Namespace) -> int:
    import anyio

    api, token = _endpoint(arguments)
    anyio.run(_serve, api.rstrip("/") + "/mcp", token)
    return 0


def _endpoint(arguments: argparse.Namespace) -> tuple[str, str]:
    if arguments.api:
        token = arguments.token or os.environ.get(TOKEN_VARIABLE, "")
        if not token:
            print(f"waitgate mcp: --api needs a bearer token (--token or ${TOKEN_VARIABLE})", file=sys.stderr)
            raise SystemExit(1)
        return str(arguments.api), str(token)
    from local.standins.jwt_issuer import LocalIssuer, caller_claims
    from local.state.running_instance import running_stack_description
    from local.state.state_dir import StateDir

    state_dir = StateDir.from_environment()
    description = running_stack_description(state_dir)
    claims = caller_claims(
        sub=arguments.sub,
        scope=arguments.scope,
        tenant=arguments.tenant,
        tenant_claim=description.get("jwt", {}).get("tenantClaim", "tenant"),
        groups=[],
        roles=[],
    )
    token = LocalIssuer.of_running_stack(state_dir).mint(claims, ttl_seconds=arguments.ttl)
    return str(description["apiUrl"]), token


async def _serve(url: str, token: str) -> None:
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    server: Server[Any] = Server(
        "waitgate",
        instructions="waitgate's tools, forwarded to a stack's /mcp",
        lifespan=lambda _server: _remote(url, token),
        on_list_tools=_list_tools,
        on_call_tool=_call_tool,
    )
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


@asynccontextmanager
async def _remote(url: str, token: str) -> AsyncIterator[Any]:
    """The SDK's client of the stack's /mcp, for the server's life (its lifespan context)."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


async def _list_tools(context: Any, params: Any) -> Any:
    return await context.lifespan_context.list_tools()


async def _call_tool(context: Any, params: Any) -> Any:
    """The stack's answer as it came: a result, or its JSON-RPC error (the SDK raises and re-sends it)."""
    return await context.lifespan_context.call_tool(params.name, params.arguments or {})
