"""The one integer rule of query strings: ASCII digits, bounded length and range; anything else is
400 validation_error naming the parameter (never a ValueError, whatever the text)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.errors import ValidationFailedError
from waitgate.run.query_integers import IntegerParameter

LIMIT = IntegerParameter("limit", minimum=1, maximum=100, default=50)


@given(st.integers(1, 100))
def test_every_integer_in_bounds_is_taken(value: int) -> None:
    assert LIMIT.parse(str(value)) == value


@given(st.text(max_size=6000))
def test_any_other_text_is_a_validation_error_naming_the_parameter(text: str) -> None:
    if text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= 100:
        assert LIMIT.parse(text) == int(text)
        return
    with pytest.raises(ValidationFailedError) as refused:
        LIMIT.parse(text or "x")
    assert refused.value.extensions["path"] == "limit"


@pytest.mark.parametrize("text", ["0", "101", "abc", "1e3", "+5", "²", "①", "5" * 5000, "-0"])
def test_the_issues_limits_are_refused(text: str) -> None:
    with pytest.raises(ValidationFailedError):
        LIMIT.parse(text)


def test_absent_or_empty_is_the_default_and_the_schema_says_the_same_bounds() -> None:
    assert LIMIT.parse(None) == LIMIT.parse("") == 50
    assert LIMIT.schema() == {"type": "integer", "minimum": 1, "maximum": 100, "default": 50}
