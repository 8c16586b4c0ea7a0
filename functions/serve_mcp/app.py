"""serveMcp — POST /mcp: waitgate as an MCP server (Streamable HTTP, stateless, JSON answers), and
GET /.well-known/oauth-protected-resource[/mcp], its resource metadata (docs/mcp.md).

The bearer JWT is checked by the SDK's middleware with waitgate.mcp_server.bearer (no gateway
authorizer: a 401 must carry MCP's `WWW-Authenticate` pointer, which API Gateway's would not).
The SDK comes with this function (requirements.txt), not with the layer.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from waitgate.mcp_server.serving import mcp_exchange
from waitgate.wiring.observability import observed

logger = Logger()


@logger.inject_lambda_context(clear_state=True)
@observed
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return mcp_exchange()(event)
