"""An approved action's fingerprint: `sha256:` and the hex SHA-256 of its RFC 8785 canonical JSON.

The same action gives the same fingerprint whatever the order of its members or the spelling of its
numbers (1.0 and 1 are one number in JSON); any change to its name, args or target gives another.
RFC 8785 numbers are IEEE 754 doubles: an integer past 2^53 cannot be canonicalized, and is refused.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

import rfc8785

PREFIX: Final = "sha256:"


class NotCanonicalizableError(ValueError):
    """The value has no RFC 8785 form (an integer past 2^53, a non-JSON type)."""


def action_fingerprint(action: Any) -> str:
    """`sha256:<64 hex>` of the action's canonical JSON (`{name, args, target?}`)."""
    try:
        canonical = rfc8785.dumps(action)
    except rfc8785.CanonicalizationError as exc:
        raise NotCanonicalizableError(f"has no RFC 8785 canonical form ({exc})") from None
    return PREFIX + hashlib.sha256(canonical).hexdigest()
