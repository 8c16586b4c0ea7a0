"""An action-bound approval in the e-mail and the Slack message: the action in one line and one
line per change, escaped where the channel needs it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.unit.channels.facts import notice, record
from waitgate.channels.action_lines import MAX_CHANGE_LINES, action_line, change_lines
from waitgate.channels.email_message import email_content
from waitgate.channels.message_facts import MessageFacts, facts_of
from waitgate.channels.slack_blocks import message_blocks

TRANSFER = {"name": "transfer", "args": {"amount": 100, "to": "acct-2"}, "target": "acct-1"}


def bound(**data: Any) -> MessageFacts:
    base = record()
    payload = {**base.payload, "data": {**base.payload["data"], "action": TRANSFER, **data}}
    return facts_of(replace(base, payload=payload), notice())


def test_the_action_and_its_changes_in_lines() -> None:
    assert action_line({"action": TRANSFER}) == 'transfer on acct-1: {"amount":100,"to":"acct-2"}'
    assert change_lines({"changes": {"before": {"b": 1000, "h": 1}, "after": {"b": 900, "n": "x"}}}) == (
        "/b: 1000 → 900",
        "/h: removed (was 1)",
        '/n: added "x"',
    )
    patch = [
        {"op": "replace", "path": "/b", "value": 9},
        {"op": "remove", "path": "/h"},
        {"op": "copy", "from": "/a", "path": "/c"},
    ]
    assert change_lines({"changes": patch}) == ("/b: becomes 9", "/h: removed", "/c: copied from /a")
    many = [{"op": "remove", "path": f"/{n}"} for n in range(MAX_CHANGE_LINES + 3)]
    assert change_lines({"changes": many})[-1] == "… and 3 more (on the page)"
    assert action_line({}) == "" and change_lines({}) == ()


def test_the_email_names_the_action_and_the_changes() -> None:
    content = email_content(bound(changes=[{"op": "replace", "path": "/balance", "value": 900}]))
    assert 'Action:           transfer on acct-1: {"amount":100,"to":"acct-2"}' in content.text
    assert "Changes:          /balance: becomes 900" in content.text
    assert "transfer on acct-1: {&quot;amount&quot;:100" in content.html


def test_the_slack_message_names_the_action_escaped() -> None:
    blocks = message_blocks(bound(changes=[{"op": "add", "path": "/<b>", "value": "a&b"}]))
    texts = [block["text"]["text"] for block in blocks if block["type"] == "section" and "text" in block]
    action = next(text for text in texts if text.startswith("*Action:*"))
    assert "transfer on acct-1" in action
    assert '• /&lt;b&gt;: added "a&amp;b"' in action


def test_an_approval_without_an_action_says_nothing_of_one() -> None:
    facts = facts_of(record(), notice())
    assert (facts.bound_action, facts.changes) == ("", ())
    assert "Action:" not in email_content(facts).text
