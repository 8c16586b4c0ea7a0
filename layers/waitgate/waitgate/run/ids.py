"""Interrupt ids: ULID-like, time-ordered text (48-bit milliseconds + 80 random bits, Crockford base32)."""

from __future__ import annotations

import secrets
import time

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _base32(number: int, length: int) -> str:
    chars = []
    for _ in range(length):
        number, remainder = divmod(number, 32)
        chars.append(_ALPHABET[remainder])
    return "".join(reversed(chars))


class UlidGenerator:
    def new_interrupt_id(self) -> str:
        milliseconds = time.time_ns() // 1_000_000
        return _base32(milliseconds, 10) + _base32(secrets.randbits(80), 16)
