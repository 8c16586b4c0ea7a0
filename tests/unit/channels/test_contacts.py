"""Contact points are checked when set."""

from __future__ import annotations

import pytest

from waitgate.channels.contacts import ContactPoints, checked_email, checked_slack_user
from waitgate.errors import ValidationFailedError


def test_the_channels_a_principal_can_be_reached_on() -> None:
    assert ContactPoints("a@example.com", "U1AB").channels == ("email", "slack")
    assert ContactPoints(slack_user="U1AB").channels == ("slack",)
    assert ContactPoints().channels == ()


@pytest.mark.parametrize("address", ["alice@example.com", " alice+ops@mail.example.co.uk "])
def test_an_address_is_taken_trimmed(address: str) -> None:
    assert checked_email(address) == address.strip()


@pytest.mark.parametrize(
    "address",
    [
        "alice",
        "alice@",
        "@example.com",
        "a b@example.com",
        "a@b",
        "a@example.com\nBcc: x@y.z",
        "x" * 250 + "@example.com",
    ],
)
def test_what_is_no_address_is_refused(address: str) -> None:
    with pytest.raises(ValidationFailedError):
        checked_email(address)


def test_a_slack_member_id_looks_like_one() -> None:
    assert checked_slack_user("U024BE7LH") == "U024BE7LH"
    assert checked_slack_user("W012A3CDE") == "W012A3CDE"
    for wrong in ("alice", "u024be7lh", "C024BE7LH", "U"):
        with pytest.raises(ValidationFailedError):
            checked_slack_user(wrong)
