"""A form body as API Gateway hands it over (payload v2: base64 for a form), read into its fields."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from waitgate.errors import PayloadTooLargeError, ValidationFailedError, WaitgateError
from waitgate.http.form_body import MAX_FIELDS, form_fields, is_form


def event(body: bytes, content_type: str = "application/x-www-form-urlencoded") -> dict[str, Any]:
    return {
        "headers": {"content-type": content_type},
        "body": base64.b64encode(body).decode("ascii"),
        "isBase64Encoded": True,
    }


def test_a_browsers_form_is_read_into_its_fields() -> None:
    # Given what chromium posts for a comment with spaces, symbols, a line break and an umlaut
    posted = event(b"feedback=fine+%26+well%3F%0D%0A%C3%BC&scope=&action=accept")
    # Then each field once, decoded
    assert is_form(posted)
    assert form_fields(posted) == {"feedback": "fine & well?\r\nü", "scope": "", "action": "accept"}
    assert is_form(event(b"", "application/x-www-form-urlencoded; charset=UTF-8"))
    assert not is_form(event(b"{}", "application/json"))


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b"feedback=%FF", "not UTF-8"),
        (b"feedback=%ED%A0%80", "not UTF-8"),  # a surrogate, UTF-8-encoded: not a scalar value
        ("feedback=ü".encode(), "not UTF-8"),  # a browser percent-encodes every byte past ASCII
        (b"feedback", "name=value pairs"),
        (b"a=1&&b=2", "name=value pairs"),
        (b"action=accept&action=reject", "twice"),
        ("&".join(f"f{i}=x" for i in range(MAX_FIELDS + 1)).encode(), f"at most {MAX_FIELDS}"),
    ],
)
def test_what_no_browser_sends_is_a_400(body: bytes, detail: str) -> None:
    with pytest.raises(ValidationFailedError) as refusal:
        form_fields(event(body))
    assert detail in refusal.value.detail


def test_a_form_over_256_kb_is_413() -> None:
    with pytest.raises(PayloadTooLargeError):
        form_fields(event(b"feedback=" + b"x" * 256 * 1024))


@settings(max_examples=examples(300), deadline=None)
@given(
    body=st.binary(max_size=300)
    | st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass"))
)
def test_any_body_is_fields_or_a_refusal(body: bytes) -> None:
    try:
        fields = form_fields(event(body))
    except WaitgateError as refusal:
        assert refusal.status in {400, 413}
        return
    assert all(isinstance(name, str) and isinstance(value, str) for name, value in fields.items())
    for text in [*fields, *fields.values()]:
        text.encode("utf-8")  # Unicode scalar values only: a lone surrogate would raise here
