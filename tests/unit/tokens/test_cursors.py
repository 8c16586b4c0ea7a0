"""Page cursors: the store's position, MACed with the keyring for one context; any other text is
a ValidationFailedError naming `cursor`, never another error."""

from __future__ import annotations

import secrets

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.errors import ValidationFailedError
from waitgate.tokens import Keyring
from waitgate.tokens.cursors import MAX_CURSOR, open_cursor, seal_cursor

KEYRING = Keyring("k1", {"k1": secrets.token_bytes(32)})
CONTEXT = ("default", "alice", "pending", "me", "", "")


B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


@given(st.text(B64URL, min_size=1, max_size=1400))  # the store's positions: base64url of its key
def test_a_sealed_position_opens_for_its_context_alone(position: str) -> None:
    cursor = seal_cursor(position, CONTEXT, KEYRING)
    assert cursor.isascii() and not cursor.strip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    )
    assert open_cursor(cursor, CONTEXT, KEYRING) == position
    with pytest.raises(ValidationFailedError):
        open_cursor(cursor, ("default", "alice\u0000", *CONTEXT[2:]), KEYRING)


@given(st.text(max_size=MAX_CURSOR + 10) | st.text("A_-b0=", max_size=200))
def test_any_other_text_is_a_validation_error(text: str) -> None:
    with pytest.raises(ValidationFailedError) as refused:
        open_cursor(text, CONTEXT, KEYRING)
    assert refused.value.extensions["path"] == "cursor"


def test_a_deeply_nested_body_is_refused_not_a_recursion_error() -> None:
    import base64

    body = base64.urlsafe_b64encode(b"[" * 1500).rstrip(b"=").decode()
    with pytest.raises(ValidationFailedError):
        open_cursor(body + "A" * 43, CONTEXT, KEYRING)
