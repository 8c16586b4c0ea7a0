"""Who is calling: a principal of a tenant, authenticated by a bearer JWT or by a signed token."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


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
