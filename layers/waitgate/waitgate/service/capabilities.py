"""getCapabilities: what this host advertises (the interrupt facet and the conversation capability)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from waitgate.tokens import TOKEN_ALGS

REF_KIND_ORDER = ("principal", "group", "role")


def describe_capabilities(ref_kinds: Iterable[str], conversation: bool) -> dict[str, Any]:
    """`{facets: {interrupt: {tokenAlgs, refKinds}}, capabilities: {conversation}}`; refKinds in the
    canonical order, whatever order the configuration lists them in."""
    configured = set(ref_kinds)
    return {
        "facets": {
            "interrupt": {
                "tokenAlgs": list(TOKEN_ALGS),
                "refKinds": [kind for kind in REF_KIND_ORDER if kind in configured],
            }
        },
        "capabilities": {"conversation": conversation},
    }
