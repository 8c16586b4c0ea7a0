"""When an event satisfies a wait (docs/webhooks.md): every correlation member equal, more allowed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from waitgate.payloads.correlation import awaited_event, with_object_correlation
from waitgate.webhooks.matching import (
    MAX_INDEXED_MEMBERS,
    correlation_in,
    correlation_key,
    indexed_members,
    lookup_member,
    matches,
    member_key,
    shape_of,
)

NAMES = st.text(alphabet="abcdefgh", min_size=1, max_size=6)
CORRELATIONS = st.dictionaries(NAMES, st.text(max_size=8), min_size=1, max_size=4)


def test_every_member_must_equal_and_the_event_may_hold_more() -> None:
    assert matches({"orderId": "o-1"}, {"orderId": "o-1", "amount": 5})
    assert not matches({"orderId": "o-1"}, {"orderId": "o-2"})
    assert not matches({"orderId": "o-1", "shop": "s"}, {"orderId": "o-1"})
    assert not matches({}, {"orderId": "o-1"})


def test_integers_compare_by_their_decimal_and_nothing_else_converts() -> None:
    assert matches({"number": "42"}, {"number": 42})
    assert not matches({"number": "42"}, {"number": 42.0})
    assert not matches({"flag": "True"}, {"flag": True})
    assert not matches({"orderId": "o-1"}, {"orderId": ["o-1"]})


@given(correlation=CORRELATIONS, extra=st.dictionaries(st.text(alphabet="xyz", min_size=1), st.text()))
def test_an_event_carrying_the_correlation_matches_and_finds_its_key(
    correlation: dict[str, str], extra: dict[str, str]
) -> None:
    # Given an event whose data holds the wait's correlation and more
    data = {**extra, **correlation}
    # Then it matches, and computing the key for the wait's shape from the event gives the wait's key
    assert matches(correlation, data)
    found = correlation_in(data, shape_of(correlation))
    assert found is not None
    assert correlation_key("t", "e", found) == correlation_key("t", "e", correlation)
    # And the wait's lookup member is one the event is indexed by (few members here)
    name, value = lookup_member(correlation)
    assert (name, value) in indexed_members(data) or len(indexed_members(data)) == MAX_INDEXED_MEMBERS


@given(correlation=CORRELATIONS)
def test_the_key_does_not_depend_on_member_order_but_on_everything_else(correlation: dict[str, str]) -> None:
    reordered = dict(reversed(list(correlation.items())))
    assert correlation_key("t", "e", correlation) == correlation_key("t", "e", reordered)
    assert correlation_key("t", "e", correlation) != correlation_key("u", "e", correlation)
    assert correlation_key("t", "e", correlation) != correlation_key("t", "f", correlation)
    assert member_key("t", "e", "a", "b") != member_key("t", "e", "ab", "")


def test_a_kept_event_is_found_by_at_most_its_first_members() -> None:
    data = {f"m{index:02d}": "v" for index in range(MAX_INDEXED_MEMBERS + 5)} | {"skip": 1.5}
    members = indexed_members(data)
    assert len(members) == MAX_INDEXED_MEMBERS and members[0] == ("m00", "v")


def test_a_plain_string_correlation_is_the_member_id() -> None:
    payload = {"kind": "external-event", "key": "k", "data": {"eventType": "e", "correlation": "ord_1"}}
    normalized = with_object_correlation(payload)
    assert normalized["data"]["correlation"] == {"id": "ord_1"}
    assert awaited_event(normalized) == ("e", {"id": "ord_1"})
    # Any other kind, or an empty string, is left for the payload rules to judge
    assert with_object_correlation({**payload, "kind": "custom"})["data"]["correlation"] == "ord_1"
    empty = {**payload, "data": {"eventType": "e", "correlation": ""}}
    assert with_object_correlation(empty) == empty


def test_the_sdk_builds_a_plain_string_correlation_as_the_member_id() -> None:
    from waitgate.sdk import ExternalEvent

    payload = ExternalEvent("payment", event_type="payment.settled", correlation="ord_1").to_payload()
    assert payload["data"]["correlation"] == {"id": "ord_1"}
