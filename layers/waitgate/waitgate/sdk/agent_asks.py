"""An agent's asks through waitgate's MCP server (`POST /mcp`, docs/mcp.md), with the official `mcp`
SDK's client (the `mcp` extra, imported when a call is made): ask for an approval or an answer, read
where it stands, wait for its outcome.

    asks = AgentAsks(api_url, token_provider=lambda: agent_jwt)   # scope interrupts:request
    asked = await asks.request_approval({"title": "Ship 42?", "approvers": ["alice"], "request_key": k})
    ended = await asks.outcome(asked.run_id)                      # polls get_interrupt

Each ask is one interrupt whatever the number of retries: the server derives its run from the caller,
the arguments and `request_key`. How the agent learns of the decision is its choice: `outcome` polls;
a receiver of waitgate's webhooks calls `get_interrupt` when told, or hands the resume `KnownOutcomes`
(every resume takes `Outcomes`: anything with `outcome(run_id)`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

PENDING = "pending"


class AskRefused(Exception):
    """waitgate refused the ask (`code` is the API's problem code, `status` its HTTP status) or the
    MCP SDK refused its arguments (`code` "tool_error"). Nothing was asked."""

    def __init__(self, code: str, status: int | None, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.status = code, status


@dataclass(frozen=True)
class AskedInterrupt:
    """An interrupt as the agent sees it (get_interrupt's view): where it stands, and once ended, how."""

    run_id: str
    node_id: str
    interrupt_id: str
    kind: str
    status: str
    resume_value: Any = None
    decided_by: str | None = None
    deadline: str | None = None
    inbox_url: str | None = None

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> AskedInterrupt:
        return cls(
            run_id=view["runId"],
            node_id=view["nodeId"],
            interrupt_id=view["interruptId"],
            kind=view["kind"],
            status=view["status"],
            resume_value=view.get("resumeValue"),
            decided_by=view.get("decidedBy"),
            deadline=view.get("deadline"),
            inbox_url=view.get("inboxUrl"),
        )

    @property
    def ended(self) -> bool:
        return self.status != PENDING


class Outcomes(Protocol):
    """Where a resume learns how an ask ended: `AgentAsks` polls; `KnownOutcomes` holds what the
    agent was told otherwise (the seam for waitgate's webhooks out)."""

    async def outcome(self, run_id: str) -> AskedInterrupt: ...


@dataclass(frozen=True)
class KnownOutcomes:
    """Ended asks the agent already knows, by run id (e.g. from a webhook's event, `AskedInterrupt.of`
    on its interrupt view); an ask not among them, or not ended, is refused (KeyError, ValueError)."""

    ended: Mapping[str, AskedInterrupt]

    async def outcome(self, run_id: str) -> AskedInterrupt:
        asked = self.ended[run_id]
        if not asked.ended:
            raise ValueError(f"{run_id} is still pending")
        return asked


class AgentAsks:
    def __init__(
        self,
        api_url: str,
        token_provider: Callable[[], str],
        *,
        poll_interval: float = 2.0,
        timeout: float = 60,
    ) -> None:
        """`token_provider` returns the agent's bearer JWT (scope `interrupts:request`), per call."""
        self.mcp_url = api_url.rstrip("/") + "/mcp"
        self._token_provider = token_provider
        self._poll_interval, self._timeout = poll_interval, timeout

    async def request_approval(self, arguments: Mapping[str, Any]) -> AskedInterrupt:
        return AskedInterrupt.of(await self._call("request_approval", arguments))

    async def ask_question(self, arguments: Mapping[str, Any]) -> AskedInterrupt:
        return AskedInterrupt.of(await self._call("ask_question", arguments))

    async def get_interrupt(self, run_id: str) -> AskedInterrupt:
        return AskedInterrupt.of(await self._call("get_interrupt", {"run_id": run_id}))

    async def outcome(self, run_id: str) -> AskedInterrupt:
        """The interrupt once it has ended (resolved, expired or cancelled), polling get_interrupt."""
        while not (asked := await self.get_interrupt(run_id)).ended:
            await asyncio.sleep(self._poll_interval)
        return asked

    async def _call(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared.exceptions import MCPError

        headers = {"Authorization": f"Bearer {self._token_provider()}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=self._timeout) as http,
            Client(streamable_http_client(self.mcp_url, http_client=http)) as client,
        ):
            try:
                result = await client.call_tool(tool, dict(arguments))
            except MCPError as error:
                data = error.data if isinstance(error.data, Mapping) else {}
                raise AskRefused(
                    str(data.get("code", error.code)), data.get("status"), error.message
                ) from None
        if result.is_error or not isinstance(result.structured_content, dict):
            text = " ".join(getattr(part, "text", "") for part in result.content)
            raise AskRefused("tool_error", None, text)
        return result.structured_content
