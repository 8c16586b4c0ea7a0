"""What a subscription may name: https URLs to public hosts (http://127.0.0.1:<port> only where the
local stack allows it), the four lifecycle event types, a Standard Webhooks secret. Hostile input is
refused with its code, never raises anything else."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st
from standardwebhooks.webhooks import Webhook

from waitgate.errors import SubscriptionUrlRefusedError, UnknownEventTypeError, ValidationFailedError
from waitgate.subscriptions.targets import (
    EVENT_TYPES,
    is_internal_address,
    new_secret,
    parse_events,
    parse_secret,
    parse_url,
)

REFUSALS = (SubscriptionUrlRefusedError, ValidationFailedError)


@pytest.mark.parametrize(
    "url",
    [
        "https://agents.example.com/hooks",
        "https://agents.example.com:8443/hooks?tenant=a",
        "https://93.184.216.34/hooks",
        "https://[2606:2800:220:1:248:1893:25c8:1946]/h",
    ],
)
def test_an_https_url_to_a_public_host_is_taken_as_given(url: str) -> None:
    assert parse_url(url, loopback_http=False) == url


@pytest.mark.parametrize(
    "url",
    [
        "http://agents.example.com/hooks",  # not https
        "http://127.0.0.1:8080/hooks",  # loopback http, on AWS
        "https://localhost/hooks",
        "https://api.localhost/hooks",
        "https://127.0.0.1/hooks",
        "https://10.0.0.7/hooks",
        "https://192.168.1.1/hooks",
        "https://169.254.169.254/latest/meta-data",  # the metadata address
        "https://[::1]/hooks",
        "https://[::ffff:127.0.0.1]/hooks",
        "https://0.0.0.0/hooks",
        "https://224.0.0.1/hooks",
        "https://user:pass@agents.example.com/hooks",
        "https://agents.example.com/hooks#part",
        "https:///hooks",
        "ftp://agents.example.com/hooks",
        "https://agents.example.com/a b",
        "https://agents.example.com:99999/hooks",
        "https://exämple.com/hooks",
        "https://" + "a" * 2048 + ".com/",
    ],
)
def test_a_url_a_delivery_must_not_go_to_is_refused_with_its_code(url: str) -> None:
    with pytest.raises(SubscriptionUrlRefusedError) as refused:
        parse_url(url, loopback_http=False)
    assert (refused.value.status, refused.value.code, refused.value.extensions) == (
        400,
        "subscription_url_refused",
        {"path": "url"},
    )


def test_the_local_stack_allows_http_to_127_0_0_1_with_a_port_and_nothing_else_over_http() -> None:
    assert parse_url("http://127.0.0.1:8080/hooks", loopback_http=True) == "http://127.0.0.1:8080/hooks"
    for url in (
        "http://127.0.0.1/hooks",
        "http://localhost:8080/h",
        "http://10.0.0.1:80/h",
        "http://a.com:80/",
    ):
        with pytest.raises(SubscriptionUrlRefusedError):
            parse_url(url, loopback_http=True)


@given(
    st.one_of(st.text(max_size=300), st.binary(max_size=50), st.integers(), st.none(), st.lists(st.text()))
)
def test_any_input_is_a_url_or_a_refusal_with_a_code(raw: object) -> None:
    try:
        url = parse_url(raw, loopback_http=True)
    except REFUSALS as refused:
        assert refused.status == 400
        return
    assert isinstance(url, str)
    assert url.startswith(("https://", "http://127.0.0.1:"))


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=80))
def test_a_hostile_host_behind_https_is_taken_only_when_it_names_no_internal_address(host: str) -> None:
    try:
        url = parse_url(f"https://{host}/hooks", loopback_http=False)
    except REFUSALS:
        return
    assert url == f"https://{host}/hooks"
    assert "@" not in host.split("/")[0] and "#" not in url


def test_events_are_each_once_in_the_lifecycle_order_and_nothing_else() -> None:
    assert parse_events(["interrupt.resolved", "interrupt.requested", "interrupt.resolved"]) == (
        "interrupt.requested",
        "interrupt.resolved",
    )
    with pytest.raises(UnknownEventTypeError) as unknown:
        parse_events(["interrupt.resolved", "approval.resolved"])
    assert (unknown.value.status, unknown.value.code, unknown.value.extensions) == (
        400,
        "unknown_event_type",
        {"path": "events[1]"},
    )
    for raw in ([], "interrupt.resolved", [1], None, ["interrupt.resolved"] * 9):
        with pytest.raises(ValidationFailedError):
            parse_events(raw)


@given(st.lists(st.one_of(st.sampled_from(EVENT_TYPES), st.text(max_size=40), st.integers()), max_size=10))
def test_any_list_of_events_is_a_subset_of_the_lifecycle_or_a_refusal(raw: list[object]) -> None:
    try:
        events = parse_events(raw)
    except (UnknownEventTypeError, ValidationFailedError) as refused:
        assert refused.status == 400
        return
    assert set(events) <= set(EVENT_TYPES) and events


def test_a_made_secret_is_one_the_standardwebhooks_library_signs_with_and_a_given_one_is_checked() -> None:
    secret = new_secret(bytes(range(32)))
    assert parse_secret(secret) == secret
    assert Webhook(secret).sign("msg_1", __import__("datetime").datetime.now(), "{}").startswith("v1,")
    assert parse_secret(None) is None
    short = "whsec_" + base64.b64encode(b"x" * 8).decode()
    for raw in (short, "whsec_not*base64", "sk_live_123", 7, ""):
        with pytest.raises(ValidationFailedError) as refused:
            parse_secret(raw)
        assert refused.value.extensions == {"path": "secret"}


@pytest.mark.parametrize(
    ("text", "internal"),
    [
        ("127.0.0.1", True),
        ("10.1.2.3", True),
        ("172.16.0.1", True),
        ("169.254.169.254", True),
        ("::1", True),
        ("fe80::1%eth0", True),
        ("::ffff:10.0.0.1", True),
        ("0.0.0.0", True),
        ("93.184.216.34", False),
        ("2606:2800:220:1:248:1893:25c8:1946", False),
        ("agents.example.com", False),
    ],
)
def test_an_address_a_dns_name_resolves_to_is_told_internal_or_not(text: str, internal: bool) -> None:
    assert is_internal_address(text) is internal
