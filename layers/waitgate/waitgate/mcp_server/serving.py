"""Wiring of `POST /mcp`: the SDK's Streamable HTTP app (stateless, JSON answers) with waitgate's tools,
its bearer check and its protected resource metadata, served on Lambda (built once per instance)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from waitgate.mcp_server.lambda_asgi import LambdaAsgi

if TYPE_CHECKING:
    from mcp.server import MCPServer

MCP_PATH = "/mcp"
METADATA_PATH = "/.well-known/oauth-protected-resource"


@lru_cache(maxsize=1)
def mcp_exchange() -> LambdaAsgi:
    from mcp.server.auth.settings import AuthSettings
    from mcp.server.transport_security import TransportSecuritySettings

    from waitgate.mcp_server.bearer import JwtVerifier
    from waitgate.mcp_server.tools import build_server
    from waitgate.wiring.composition import inbox_dependencies, keyring, public_base_url
    from waitgate.wiring.request_composition import agent_dependencies, mcp_settings
    from waitgate.wiring.settings import settings

    configured = settings()
    resource = public_base_url() + MCP_PATH
    auth = AuthSettings.model_validate(
        {
            "issuer_url": configured.oidc_issuer,
            "resource_server_url": resource,
            "validate_token_resource": False,  # the verifier checks the audience itself
        }
    )
    audiences = tuple(str(audience) for audience in mcp_settings().get("jwtAudiences", ()))
    verifier = JwtVerifier(configured.oidc_issuer, audiences)
    server = build_server(agent_dependencies, inbox_dependencies, auth, verifier, keyring)
    _serve_bare_metadata(server, resource, configured.oidc_issuer)
    # Behind API Gateway, not a server on localhost: the Host is the API's, no DNS rebinding to guard.
    unguarded = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = server.streamable_http_app(stateless_http=True, json_response=True, transport_security=unguarded)
    return LambdaAsgi(app, lambda: app.router.lifespan_context(app))


def _serve_bare_metadata(server: MCPServer, resource: str, issuer: str) -> None:
    """RFC 9728's document at the bare well-known path too (the SDK serves it under `/mcp`'s own),
    for clients that look there first."""
    from mcp.shared.auth import ProtectedResourceMetadata
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    described = {"resource": resource, "authorization_servers": [issuer]}
    document = ProtectedResourceMetadata.model_validate(described).model_dump(mode="json", exclude_none=True)

    async def metadata(request: Request) -> JSONResponse:
        return JSONResponse(document, headers={"Cache-Control": "public, max-age=3600"})

    server.custom_route(METADATA_PATH, methods=["GET"])(metadata)
