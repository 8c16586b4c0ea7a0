"""Reading Slack's interaction payload: the tenant before the signature is checked, the click after."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from tests.support.slack_requests import button, click_body
from tests.unit.channels.facts import pending
from waitgate.channels.slack_blocks import message_blocks
from waitgate.channels.slack_clicks import NotAClickError, claimed_tenant, parse_click

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
    click = parse_click(body)
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
    assert claimed_tenant(body) == "default"


def test_the_page_button_is_a_click_that_decides_nothing() -> None:
    click = parse_click(click_body(button(BLOCKS, "waitgate:open-page"), "U1", "D1", "1.1", "T1"))
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
    ],
)
def test_what_is_not_one_of_our_clicks_names_no_tenant_and_is_no_click(body: str) -> None:
    assert claimed_tenant(body) is None
    with pytest.raises(NotAClickError):
        parse_click(body)
