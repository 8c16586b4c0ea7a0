"""The MCP requestState codec's half that is waitgate's (tokens.request_states): a sealed payload
opens under the same keyring until its expiry, and anything else (altered, forged, of another key,
expired, any other text) is refused, never an exception of another type."""

from __future__ import annotations

import secrets

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.tokens import Keyring
from waitgate.tokens.cursors import seal_cursor
from waitgate.tokens.request_states import (
    MAX_STATE,
    RequestStateRefused,
    open_request_state,
    seal_request_state,
)

SECRET = secrets.token_bytes(32)
KEYRING = Keyring("k1", {"k1": SECRET})
NOW = 1_800_000_000


@given(st.binary(max_size=2000))
def test_a_sealed_payload_opens_until_its_expiry(payload: bytes) -> None:
    state = seal_request_state(payload, NOW + 60, KEYRING)
    assert state.isascii() and " " not in state
    assert open_request_state(state, NOW, KEYRING) == payload
    assert open_request_state(state, NOW + 59, KEYRING) == payload
    with pytest.raises(RequestStateRefused, match="expired"):
        open_request_state(state, NOW + 60, KEYRING)


def test_an_altered_state_or_one_of_another_keyring_is_refused() -> None:
    state = seal_request_state(b'{"s":"run"}', NOW + 60, KEYRING)
    header, payload, mac = state.removeprefix("w1.").split(".")
    other_payload = seal_request_state(b'{"s":"other"}', NOW + 60, KEYRING).split(".")[2]
    longer = seal_request_state(b'{"s":"run"}', NOW + 10**6, KEYRING).split(".")[1]
    for altered in (
        f"w1.{header}.{other_payload}.{mac}",  # another payload under this MAC
        f"w1.{longer}.{payload}.{mac}",  # a later expiry under this MAC
        state[:-1] + ("A" if state[-1] != "A" else "B"),
    ):
        with pytest.raises(RequestStateRefused):
            open_request_state(altered, NOW, KEYRING)
    stranger = Keyring("k1", {"k1": secrets.token_bytes(32)})
    with pytest.raises(RequestStateRefused, match="seal"):
        open_request_state(state, NOW, stranger)
    rotated = Keyring("k2", {"k2": secrets.token_bytes(32)})
    with pytest.raises(RequestStateRefused, match="seal"):
        open_request_state(state, NOW, rotated)


def test_a_rotated_keyring_still_opens_the_states_of_its_older_key() -> None:
    state = seal_request_state(b"x", NOW + 60, KEYRING)
    rotated = Keyring("k2", {"k2": secrets.token_bytes(32), "k1": SECRET})
    assert open_request_state(state, NOW, rotated) == b"x"


def test_no_other_token_of_the_keyring_is_a_state() -> None:
    cursor = seal_cursor("position", ("default", "alice"), KEYRING)
    with pytest.raises(RequestStateRefused):
        open_request_state("w1." + cursor, NOW, KEYRING)


@given(st.text(max_size=MAX_STATE + 10) | st.text("w1.A_-b0=", max_size=300))
def test_any_other_text_is_refused(text: str) -> None:
    with pytest.raises(RequestStateRefused):
        open_request_state(text, NOW, KEYRING)
