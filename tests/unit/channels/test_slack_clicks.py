"""Reading Slack's interaction payload once its signature held (bounded), and what a click must match
to count: a message waitgate posted for the interrupt, in that conversation with that ts."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from tests.support.slack_requests import button, click_body
from tests.unit.channels.facts import pending
from waitgate.channels.sent_messages import SentMessage
from waitgate.channels.slack_blocks import message_blocks
from waitgate.channels.slack_clicks import NotAClickError, offered_on, parse_click

BLOCKS = message_blocks(pending())


def test_a_click_names_the_interrupt_the_user_and_when() -> None:
    body = click_body(
        button(BLOCKS, "waitgate:accept"),
        "U0ALICE",
        "D0ALICE",
        "1700000000.000100",
        "T1",
        "1764496920.123456",
    )
    click = parse_click(body.encode())
    assert (click.team_id, click.user_id, click.action) == ("T1", "U0ALICE", "accept")
    assert (click.run.tenant_id, click.run.run_id, click.node_id, click.interrupt_id) == (
        "default",
        "release-42",
        "Approve",
        "01INTERRUPT",
    )
    assert (click.channel_id, click.message_ts) == ("D0ALICE", "1700000000.000100")
    assert click.decided_at == "2025-11-30T10:02:00.123Z"
    assert click.idempotency_key == "slack:T1:D0ALICE:1700000000.000100:accept:1764496920.123456"


def test_the_page_button_is_a_click_that_decides_nothing() -> None:
    click = parse_click(click_body(button(BLOCKS, "waitgate:open-page"), "U1", "D1", "1.1", "T1").encode())
    assert click.opens_page


@pytest.mark.parametrize(
    "body",
    [
        "",
        "payload=not-json",
        urlencode({"payload": json.dumps([1])}),
        urlencode({"payload": json.dumps({"type": "view_submission"})}),
        urlencode({"payload": json.dumps({"type": "block_actions", "actions": [{"action_id": "other"}]})}),
        urlencode(
            {
                "payload": json.dumps(
                    {"type": "block_actions", "actions": [{"action_id": "waitgate:accept", "value": "{}"}]}
                )
            }
        ),
        urlencode(
            {
                "payload": json.dumps(
                    {
                        "type": "block_actions",
                        "actions": [
                            {
                                "action_id": "waitgate:accept",
                                "value": '{"t":"bad tenant!","r":"r","n":"n","i":"i"}',
                            }
                        ],
                    }
                )
            }
        ),
        urlencode(  # a value whose interrupt id is no string
            {
                "payload": json.dumps(
                    {
                        "type": "block_actions",
                        "actions": [
                            {"action_id": "waitgate:accept", "value": '{"t":"t","r":"r","n":"n","i":7}'}
                        ],
                    }
                )
            }
        ),
    ],
)
def test_what_is_not_one_of_our_clicks_is_no_click(body: str) -> None:
    with pytest.raises(NotAClickError):
        parse_click(body.encode())


def _click(channel: str = "D0ALICE", ts: str = "1700000000.000100") -> bytes:
    return click_body(button(BLOCKS, "waitgate:accept"), "U0ALICE", channel, ts, "T1").encode()


MESSAGES = (
    SentMessage("email", "alice", "1700000000.000100", "D0ALICE"),  # not a Slack message
    SentMessage("slack", "alice", "1700000000.000100", "D0ALICE", buttons=("accept", "reject")),
    SentMessage("slack", "ben", "1700000000.000200", "C0SHARED", buttons=("accept", "reject")),
)


def test_a_click_counts_only_on_the_message_of_its_conversation_and_ts() -> None:
    assert offered_on(parse_click(_click()), MESSAGES) == MESSAGES[1]
    assert offered_on(parse_click(_click("C0SHARED", "1700000000.000200")), MESSAGES) == MESSAGES[2]
    for channel, ts in [("D0ALICE", "1700000000.000200"), ("C0OTHER", "1700000000.000100"), ("", "")]:
        assert offered_on(parse_click(_click(channel, ts)), MESSAGES) is None


@pytest.mark.parametrize("action_ts", ["nan", "inf", "1e20", "abc", "1.5e3", "+1.5", "1764496920.1234567890"])
def test_an_action_ts_that_is_no_time_is_no_click(action_ts: str) -> None:
    body = click_body(button(BLOCKS, "waitgate:accept"), "U1", "D1", "1.1", "T1", action_ts)
    with pytest.raises(NotAClickError):
        parse_click(body.encode())


@pytest.mark.parametrize(
    "body",
    [
        b"payload=" + b"%5B" * 3000 + b"%5D" * 3000,
        b"payload=%FF",
        b"\x80abc",
        b"a=1&" * 20,
        b"payload=" + b"x" * (1024 * 1024),
    ],
)
def test_a_body_too_deep_not_utf8_or_too_large_is_no_click(body: bytes) -> None:
    with pytest.raises(NotAClickError):
        parse_click(body)
