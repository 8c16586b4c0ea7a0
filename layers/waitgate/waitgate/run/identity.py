"""Who is calling: a principal of a tenant, authenticated by a bearer JWT or by a signed token."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from waitgate.errors import ForbiddenError, ValidationFailedError

# Principals waitgate itself names: a webhook source (`webhook:<source>`), a signed link without a
# recipient (`token:<jti>`), the agent that asked through POST /mcp with a person's token
# (`agent:<sub>`, an approval's requester: waitgate.run.agent_asks). No person may be one: a JWT
# `sub`, a link's requested `sub` or a Slack member's principal in one of these namespaces is refused,
# so nobody reads what they decided, nor votes as an agent's request's requester.
AGENT_NAMESPACE: Final = "agent:"
OWN_NAMESPACES: Final = ("webhook:", "token:", AGENT_NAMESPACE)


def is_own_principal(principal: str) -> bool:
    """Whether `principal` is in a namespace waitgate keeps for the principals it decides as itself."""
    return principal.startswith(OWN_NAMESPACES)


def refuse_own_namespace(principal: str, *, bearer: bool) -> None:
    """403 for a bearer JWT whose `sub` is one of ours; 400 (path `sub`) for a requested one."""
    if not is_own_principal(principal):
        return
    detail = f"A principal may not begin with {' or '.join(OWN_NAMESPACES)}: those are waitgate's own."
    if bearer:
        raise ForbiddenError(detail)
    raise ValidationFailedError(detail, path="sub")


@dataclass(frozen=True)
class Caller:
    principal: str
    tenant_id: str
    via: Literal["jwt", "token", "slack", "webhook"]
    scopes: frozenset[str] = field(default_factory=frozenset)
    token_id: str | None = None  # the jti of a signed token: the caller identity for idempotency

    @property
    def idempotency_identity(self) -> str:
        """Who the key belongs to: a token (its jti), or a principal of one tenant."""
        return f"token:{self.token_id}" if self.token_id else f"principal:{self.tenant_id}:{self.principal}"
