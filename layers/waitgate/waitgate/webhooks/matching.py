"""When an event satisfies a wait, and the index keys both are found by (docs/webhooks.md).

An event of type T matches a pending external-event interrupt of the source's tenant whose
`eventType` is T and whose every correlation member equals the same-named value of the event's data
(the event may hold more). A data value equals a correlation value when it is that string, or an
integer whose decimal is that string (GitHub's numbers); nothing else matches.

The keys are digests, so any text (type, names, values) makes a key of bounded size:
- the correlation key: tenant, type and the wait's whole correlation, sorted by name — a pending wait
  is indexed under it, and an event computes it for each shape (set of member names) in use;
- the shape key: tenant and type — where the shapes in use are registered;
- a member key: tenant, type and one (name, value) — a kept event is indexed under each of its
  correlation-able members, so a later wait finds it by the first member of its own correlation.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

MAX_INDEXED_MEMBERS = 32  # members of one event's data a later wait can find it by (sorted by name)
MAX_MEMBER_VALUE = 1024


def _digest(*parts: Any) -> str:
    text = json.dumps(parts, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def correlation_key(tenant_id: str, event_type: str, correlation: Mapping[str, str]) -> str:
    return _digest("correlation", tenant_id, event_type, sorted(correlation.items()))


def shape_key(tenant_id: str, event_type: str) -> str:
    return _digest("shape", tenant_id, event_type)


def member_key(tenant_id: str, event_type: str, name: str, value: str) -> str:
    return _digest("member", tenant_id, event_type, name, value)


def event_id(source: str, delivery_id: str) -> str:
    """The digest naming a delivery of a source: a provider's retry names the same event."""
    return _digest("event", source, delivery_id)


def shape_of(correlation: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(sorted(correlation))


def correlation_value(value: Any) -> str | None:
    """What a data value compares as: a string, or an integer's decimal; None for anything else."""
    if isinstance(value, str):
        return value if len(value) <= MAX_MEMBER_VALUE else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def correlation_in(data: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, str] | None:
    """The event's values for a wait of this shape, or None when it lacks one of the names."""
    found: dict[str, str] = {}
    for name in names:
        value = correlation_value(data.get(name))
        if value is None:
            return None
        found[name] = value
    return found


def matches(correlation: Mapping[str, str], data: Mapping[str, Any]) -> bool:
    """Every member of the wait's correlation equals the same-named value of the event's data."""
    return bool(correlation) and correlation_in(data, shape_of(correlation)) == dict(correlation)


def indexed_members(data: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The (name, value) pairs a kept event is found by: the first MAX_INDEXED_MEMBERS by name."""
    pairs = ((str(name), correlation_value(value)) for name, value in sorted(data.items()))
    usable = [(name, value) for name, value in pairs if value is not None]
    return tuple(usable[:MAX_INDEXED_MEMBERS])


def lookup_member(correlation: Mapping[str, str]) -> tuple[str, str]:
    """The member a wait looks kept events up by: the first by name (a kept event is indexed by it,
    unless it holds more than MAX_INDEXED_MEMBERS usable members before it)."""
    name = min(correlation)
    return name, correlation[name]
