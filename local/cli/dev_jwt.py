"""`waitgate dev-jwt`: a JWT the running local stack's authorizer accepts, signed by its local issuer."""

from __future__ import annotations

import argparse
from typing import Any

from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir

DESCRIPTION = """\
Print a JWT (RS256, signed by the local issuer in the state directory) that the running local
stack's JWT authorizer accepts: `sub` and `scope` as given, for the stack's issuer and audience.
Pass it as `Authorization: Bearer <jwt>`. Scopes: approvals:respond, runs:read, interrupts:mint,
interrupts:request (an agent's asks over MCP, docs/mcp.md), subscriptions:manage (webhooks out,
docs/webhooks-out.md)."""
EXAMPLE = """\
example:
  JWT=$(waitgate dev-jwt --sub alice --scope "approvals:respond runs:read")"""


def add_jwt_parser(commands: Any) -> None:
    token = commands.add_parser(
        "dev-jwt",
        help="print a JWT the running local stack accepts",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    token.add_argument("--sub", required=True, help="the caller's principal (the JWT's sub)")
    token.add_argument("--scope", default="", help='space-separated scopes (default: none), e.g. "runs:read"')
    token.add_argument("--tenant", help="the tenant claim (default: none, i.e. the tenant `default`)")
    token.add_argument("--groups", default="", help="comma-separated groups claim (default: none)")
    token.add_argument("--roles", default="", help="comma-separated roles claim (default: none)")
    token.add_argument("--ttl", type=int, default=3600, help="lifetime in seconds (default: %(default)s)")


def print_dev_jwt(arguments: argparse.Namespace) -> int:
    """NoRunningStackError when no stack runs: its issuer URL (the API's) would be a guess."""
    groups = [g for g in arguments.groups.split(",") if g]
    roles = [r for r in arguments.roles.split(",") if r]
    state_dir = StateDir.from_environment()
    print(dev_jwt(state_dir, arguments.sub, arguments.scope, arguments.tenant, groups, roles, arguments.ttl))
    return 0


def dev_jwt(
    state_dir: StateDir,
    sub: str,
    scope: str = "",
    tenant: str | None = None,
    groups: list[str] | None = None,
    roles: list[str] | None = None,
    ttl: int = 3600,
) -> str:
    """The JWT `waitgate dev-jwt` prints, signed by the issuer of the stack running on `state_dir`
    (NoRunningStackError when none runs); for the e2e tests too, without a process each."""
    from local.standins.jwt_issuer import LocalIssuer, caller_claims  # PyJWT, cryptography: to sign

    description = running_stack_description(state_dir)
    issuer = LocalIssuer.of_running_stack(state_dir)
    claims = caller_claims(
        sub=sub,
        scope=scope,
        tenant=tenant,
        tenant_claim=description.get("jwt", {}).get("tenantClaim", "tenant"),
        groups=groups or [],
        roles=roles or [],
    )
    return issuer.mint(claims, ttl_seconds=ttl)
