"""The eight interrupt kinds and what each one means for the run snapshot and legacy events."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, get_args

InterruptKind = Literal[
    "approval",
    "clarification",
    "external-event",
    "custom",
    "conversation.start",
    "conversation.exchange",
    "conversation.close",
    "low-confidence",
]
INTERRUPT_KINDS: Final[tuple[InterruptKind, ...]] = get_args(InterruptKind)

SnapshotStatus = Literal["waiting-approval", "waiting-input", "waiting-external"]

SNAPSHOT_STATUS_BY_KIND: Final[Mapping[str, SnapshotStatus]] = MappingProxyType(
    {
        "approval": "waiting-approval",
        "low-confidence": "waiting-approval",
        "clarification": "waiting-input",
        "custom": "waiting-input",
        "conversation.start": "waiting-input",
        "conversation.exchange": "waiting-input",
        "conversation.close": "waiting-input",
        "external-event": "waiting-external",
    }
)

# Kinds that also emit the legacy `<prefix>.requested` / `<prefix>.resolved` events.
LEGACY_EVENT_PREFIX_BY_KIND: Final[Mapping[str, str | None]] = MappingProxyType(
    {kind: (kind if kind in ("approval", "clarification") else None) for kind in INTERRUPT_KINDS}
)

CONVERSATION_KINDS: Final[frozenset[InterruptKind]] = frozenset(
    kind for kind in INTERRUPT_KINDS if kind.startswith("conversation.")
)


def snapshot_status_for(kind: str) -> SnapshotStatus:
    """The RunSnapshot status while an interrupt of `kind` is pending; ValueError if unknown."""
    try:
        return SNAPSHOT_STATUS_BY_KIND[kind]
    except KeyError:
        raise ValueError(f"unknown interrupt kind: {kind!r}") from None
