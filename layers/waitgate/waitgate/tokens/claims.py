"""The claims an interrupt token carries, and their strict JSON form (camelCase keys)."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal

Intent = Literal["resolve", "inspect"]
INTENTS: Final[frozenset[str]] = frozenset(("resolve", "inspect"))
DEFAULT_LIFETIME: Final = timedelta(minutes=30)

_SIZE_WITHOUT_SUB: Final = 7
_SIZE_WITH_SUB: Final = 8
_FIELDS: Final = ("interrupt_id", "run_id", "node_id", "tenant_id", "intent", "expires_at", "jti", "sub")
_new = object.__new__
_set = object.__setattr__


def new_jti() -> str:
    """A fresh token id: 128 random bits, base64url."""
    return secrets.token_urlsafe(16)


def format_expires_at(moment: datetime) -> str:
    """RFC 3339, UTC, second precision, `Z` suffix (the only form a token carries)."""
    return moment.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def parse_expires_at(text: str) -> datetime:
    """Parse exactly `YYYY-MM-DDTHH:MM:SSZ`; anything else is a ValueError."""
    # The separators sit at 4, 7, 10, 13, 16 and 19: one slice checks them all.
    if len(text) != 20 or text[4::3] != "--T::Z" or not text.isascii():
        raise ValueError("expiresAt must be YYYY-MM-DDTHH:MM:SSZ")
    return datetime.fromisoformat(text)  # 3.11 reads the `Z` as UTC


def expires_at_for(
    now: datetime,
    default_lifetime: timedelta = DEFAULT_LIFETIME,
    deadline: datetime | None = None,
) -> datetime:
    """min(now + lifetime, deadline), in UTC, rounded down to the second.

    Rounding down keeps the token from outliving the interrupt by a fraction of a second.
    """
    if now.utcoffset() is None or (deadline is not None and deadline.utcoffset() is None):
        raise ValueError("now and deadline must be timezone-aware")
    if default_lifetime <= timedelta(0):
        raise ValueError("default_lifetime must be positive")
    expires = now + default_lifetime
    if deadline is not None and deadline < expires:
        expires = deadline
    return expires.astimezone(UTC).replace(microsecond=0)


@dataclass(frozen=True, slots=True)
class TokenClaims:
    """What a token says: which interrupt, for whom, what it allows and until when."""

    interrupt_id: str
    run_id: str
    node_id: str
    tenant_id: str
    intent: Intent
    expires_at: datetime
    jti: str = field(default_factory=new_jti)
    sub: str | None = None

    def __post_init__(self) -> None:
        # Inline checks (no loop, no getattr): this runs on every verify.
        if not (
            type(self.interrupt_id) is str
            and type(self.run_id) is str
            and type(self.node_id) is str
            and type(self.tenant_id) is str
            and type(self.jti) is str
            and self.interrupt_id
            and self.run_id
            and self.node_id
            and self.tenant_id
            and self.jti
        ):
            raise ValueError("interrupt_id, run_id, node_id, tenant_id, jti: non-empty strings")
        sub = self.sub
        if sub is not None and (type(sub) is not str or not sub):
            raise ValueError("sub must be a non-empty string when present")
        if self.intent != "resolve" and self.intent != "inspect":
            raise ValueError("intent must be 'resolve' or 'inspect'")
        moment = self.expires_at
        if type(moment) is not datetime or (moment.tzinfo is not UTC and moment.utcoffset() != timedelta(0)):
            raise ValueError("expires_at must be a UTC-aware datetime")
        if moment.microsecond:
            raise ValueError("expires_at must have second precision")

    def to_dict(self) -> dict[str, str]:
        """The camelCase claims, in the fixed order tokens are minted with."""
        data = {
            "interruptId": self.interrupt_id,
            "runId": self.run_id,
            "nodeId": self.node_id,
            "tenantId": self.tenant_id,
            "intent": self.intent,
            "expiresAt": format_expires_at(self.expires_at),
            "jti": self.jti,
        }
        if self.sub is not None:
            data["sub"] = self.sub
        return data

    def to_json(self) -> str:
        """Compact JSON (no spaces, non-ASCII kept as is; encode it as UTF-8)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> TokenClaims:
        """Strict parse: exactly the known keys (sub optional), all strings; else ValueError."""
        data = json.loads(text)
        if type(data) is not dict:
            raise ValueError("claims must be a JSON object")
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TokenClaims:
        """Strict: exactly the known keys (sub optional), non-empty strings; else ValueError.

        The hot path of verify: it checks inline and fills the slots directly, which skips the
        dataclass __init__ and __post_init__ (about 1 us per token) with the same rules.
        """
        interrupt_id, run_id, node_id, tenant_id, intent, expires, jti, sub = _checked(data)
        claims = _new(cls)
        _set(claims, "interrupt_id", interrupt_id)
        _set(claims, "run_id", run_id)
        _set(claims, "node_id", node_id)
        _set(claims, "tenant_id", tenant_id)
        _set(claims, "intent", intent)
        _set(claims, "expires_at", parse_expires_at(expires))
        _set(claims, "jti", jti)
        _set(claims, "sub", sub)
        return claims


def _checked(data: dict[str, Any]) -> tuple[str, str, str, str, Intent, str, str, str | None]:
    """The claim values in field order (expiresAt still text), or ValueError."""
    size = len(data)
    if size == _SIZE_WITH_SUB:
        sub = data.get("sub")
        if type(sub) is not str or not sub:  # also: an eighth key that is not `sub`
            raise ValueError("sub must be a non-empty string when present")
    elif size == _SIZE_WITHOUT_SUB:
        sub = None
    else:
        raise ValueError("claims must have exactly the known keys")
    try:
        interrupt_id, run_id = data["interruptId"], data["runId"]
        node_id, tenant_id = data["nodeId"], data["tenantId"]
        intent, expires, jti = data["intent"], data["expiresAt"], data["jti"]
    except KeyError:
        raise ValueError("claims must have exactly the known keys") from None
    if not (
        type(interrupt_id) is str
        and type(run_id) is str
        and type(node_id) is str
        and type(tenant_id) is str
        and type(jti) is str
        and type(expires) is str
        and interrupt_id
        and run_id
        and node_id
        and tenant_id
        and jti
    ):
        raise ValueError("interruptId, runId, nodeId, tenantId, jti: non-empty strings")
    if intent != "resolve" and intent != "inspect":
        raise ValueError("intent must be 'resolve' or 'inspect'")
    return interrupt_id, run_id, node_id, tenant_id, intent, expires, jti, sub
