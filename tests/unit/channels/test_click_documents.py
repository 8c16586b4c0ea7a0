"""A click on the clicks queue: the parsed click alone, the same click when read back, and nothing of
Slack's body besides (no signature, trigger, response URL or verification token)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.slack_requests import button, click_body
from tests.unit.channels.facts import pending
from waitgate.channels.click_documents import MAX_FIELD_CHARS, click_document, click_of
from waitgate.channels.slack_blocks import message_blocks
from waitgate.channels.slack_clicks import NotAClickError, parse_click

BODY = click_body(
    button(message_blocks(pending()), "waitgate:accept"),
    "U0ALICE",
    "D0ALICE",
    "1700000000.000100",
    "T1",
    "1764496920.123456",
)


def test_a_queued_click_reads_back_as_the_same_click() -> None:
    click = parse_click(BODY.encode())
    document = json.loads(json.dumps(click_document(click)))  # as SQS hands it over
    assert click_of(document) == click
    assert click_of(document).idempotency_key == click.idempotency_key  # the same request to the resolve


def test_only_the_click_is_queued_never_what_else_slack_sent() -> None:
    document = click_document(parse_click(BODY.encode()))
    text = json.dumps(document)
    # Slack's body carries a trigger id, a response URL and its deprecated verification token
    assert {"trigger_id", "response_url", "token"} <= json.loads(_payload(BODY)).keys()
    for secretish in ("deprecated-verification-token", "hooks.slack.invalid", "1.2.3", "payload"):
        assert secretish not in text
    assert set(document) == {
        "v",
        "team",
        "user",
        "action",
        "tenant",
        "run",
        "node",
        "interrupt",
        "actionTs",
        "channel",
        "messageTs",
    }
    assert len(text.encode()) < 1024  # far below SQS's 256 KB, whatever Slack's body weighed


def _payload(body: str) -> str:
    from urllib.parse import parse_qs

    return parse_qs(body)["payload"][0]


@pytest.mark.parametrize(
    "change",
    [
        {"v": "2"},
        {"run": 7},
        {"node": "N" * 81},
        {"tenant": "bad tenant!"},
        {"actionTs": "nan"},
        {"user": "U" * (MAX_FIELD_CHARS + 1)},
    ],
)
def test_a_document_the_acknowledgement_never_queues_is_no_click(change: dict[str, object]) -> None:
    document = {**click_document(parse_click(BODY.encode())), **change}
    with pytest.raises(NotAClickError):
        click_of(document)


QUEUED = click_document(parse_click(BODY.encode()))
documents = st.one_of(
    st.none(),
    st.integers(),
    st.text(),
    st.lists(st.text()),
    st.dictionaries(st.text(), st.text()),
    st.dictionaries(st.sampled_from(sorted(QUEUED)), st.text() | st.integers()).map(
        lambda changed: {**QUEUED, **changed}
    ),
)


@given(documents)
def test_whatever_a_queue_message_holds_is_a_click_or_no_click(document: object) -> None:
    try:
        click = click_of(document)
    except NotAClickError:
        return
    assert click_document(click)["interrupt"] == document["interrupt"]  # type: ignore[index]
