"""A source's configuration, and reading an event where the source says its parts are."""

from __future__ import annotations

import json

import pytest

from waitgate.errors import PayloadTooLargeError, ValidationFailedError
from waitgate.webhooks.events import read_event
from waitgate.webhooks.sources import parse_source


def test_a_source_takes_defaults_and_refuses_what_cannot_work() -> None:
    source = parse_source({"name": "stripe", "scheme": "stripe"})
    assert (source.tenant_id, source.type_path, source.ttl_seconds, source.match_many) == (
        "default",
        "type",
        86400,
        False,
    )
    for wrong, path in (
        ({"name": "events", "scheme": "stripe"}, "name"),
        ({"name": "Bad Name", "scheme": "stripe"}, "name"),
        ({"name": "a", "scheme": "rot13"}, "scheme"),
        ({"name": "a", "scheme": "github", "dataPath": "data..object"}, "dataPath"),
        ({"name": "a", "scheme": "github", "dataPath": "header:X-Event"}, "dataPath"),
        ({"name": "a", "scheme": "github", "ttlSeconds": 5}, "ttlSeconds"),
        ({"name": "a", "scheme": "github", "matchMany": "yes"}, "matchMany"),
    ):
        with pytest.raises(ValidationFailedError) as refused:
            parse_source(wrong)
        assert refused.value.extensions["path"] == path


def test_an_event_is_read_where_the_source_says() -> None:
    stripe = parse_source(
        {"name": "s", "scheme": "stripe", "dataPath": "data.object.metadata", "resumePath": "data.object"}
    )
    body = {
        "id": "evt_1",
        "type": "payment_intent.succeeded",
        "data": {"object": {"id": "pi", "metadata": {"o": "1"}}},
    }
    event = read_event(stripe, json.dumps(body).encode(), {})
    assert (event.delivery_id, event.event_type, event.data) == (
        "evt_1",
        "payment_intent.succeeded",
        {"o": "1"},
    )
    assert event.resume_value == {"id": "pi", "metadata": {"o": "1"}}
    github = parse_source({"name": "g", "scheme": "github", "typePath": "header:X-GitHub-Event"})
    headers = {"x-github-event": "pull_request", "x-github-delivery": "d-1"}
    event = read_event(github, b'{"number": 7}', headers)
    assert (event.delivery_id, event.event_type, event.data) == ("d-1", "pull_request", {"number": 7})


def test_a_plain_hmac_delivery_is_named_by_its_body() -> None:
    source = parse_source({"name": "h", "scheme": "hmac-sha256"})
    first = read_event(source, b'{"type": "t"}', {})
    assert first.delivery_id == read_event(source, b'{"type": "t"}', {}).delivery_id
    assert first.delivery_id != read_event(source, b'{"type":"t"}', {}).delivery_id


def test_what_is_not_an_event_is_400_and_what_is_too_large_is_413() -> None:
    source = parse_source({"name": "h", "scheme": "hmac-sha256", "dataPath": "data"})
    for body in (b"[]", b'{"type": 1.5}', b'{"type": ""}', b"{", b'{"type": "t", "type": "u"}'):
        with pytest.raises(ValidationFailedError):
            read_event(source, body, {})
    # A data path that leads nowhere correlates on nothing (kept, matching no wait)
    assert read_event(source, b'{"type": "t", "data": 3}', {}).data == {}
    with pytest.raises(PayloadTooLargeError):
        read_event(source, json.dumps({"type": "t", "data": {"x": "y" * 70_000}}).encode(), {})
