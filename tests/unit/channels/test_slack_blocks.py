"""The Slack message: Block Kit with one button per action a click can say, a page button, and the
outcome once decided, without buttons."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tests.unit.channels.facts import LINK, notice, pending, record, vote
from waitgate.channels.message_facts import facts_of
from waitgate.channels.slack_blocks import fallback_text, message_blocks, message_metadata


def actions(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [element for block in blocks if block["type"] == "actions" for element in block["elements"]]


def test_a_pending_approval_has_accept_reject_and_a_page_button_for_what_needs_a_form() -> None:
    blocks = message_blocks(pending())
    buttons = actions(blocks)
    assert [b["action_id"] for b in buttons] == ["waitgate:accept", "waitgate:reject", "waitgate:open-page"]
    assert [b.get("style") for b in buttons] == ["primary", "danger", None]
    assert buttons[2]["url"] == LINK and buttons[2]["text"]["text"] == "Request changes…"
    value = json.loads(buttons[0]["value"])
    assert value == {"t": "default", "r": "release-42", "n": "Approve", "i": "01INTERRUPT"}
    assert LINK not in buttons[0]["value"]
    shown = json.dumps(blocks)
    assert "Ship release 42?" in shown and "*Deadline*\\n2026-11-30 18:00 UTC" in shown
    assert "*Approvals*\\n0 of 2" in shown and "workflow `waitgate-release`" in shown


def test_quorum_progress_names_who_accepted() -> None:
    shown = json.dumps(message_blocks(pending(votes=(vote("ben", "accept"),))))
    assert "*Approvals*\\n1 of 2 (ben)" in shown


def test_a_decided_message_says_who_decided_when_and_has_no_buttons() -> None:
    resume = {"action": "accept", "decidedAt": "x", "votes": [vote("alice", "accept"), vote("ben", "accept")]}
    decided = facts_of(
        record(status="resolved", resume_value=resume, resolved_at="2026-11-30T10:02:31.500Z"),
        notice(link=""),
    )
    blocks = message_blocks(decided)
    assert not actions(blocks)
    assert "*Accepted by alice and ben at 10:02 UTC*" in json.dumps(blocks)
    assert (
        fallback_text(decided) == "Approval needed: Ship release 42? (Accepted by alice and ben at 10:02 UTC)"
    )


def test_expired_and_cancelled_messages_say_so() -> None:
    assert "Expired" in json.dumps(message_blocks(pending(status="expired")))
    assert "Cancelled" in json.dumps(message_blocks(pending(status="cancelled")))


def test_other_kinds_get_only_the_page_button() -> None:
    facts = facts_of(
        record(
            kind="clarification", payload={"kind": "clarification", "key": "k", "data": {"questions": []}}
        ),
        notice(kind="clarification"),
    )
    assert [(b["action_id"], b["text"]["text"]) for b in actions(message_blocks(facts))] == [
        ("waitgate:open-page", "Answer on the page…")
    ]


def test_texts_are_escaped_and_cut_to_slacks_limits() -> None:
    facts = pending(
        payload={
            "kind": "approval",
            "key": "k",
            "data": {"actions": ["accept"], "description": "<!channel> & " + "x" * 4000},
        }
    )
    facts = facts.__class__(**{**facts.__dict__, "title": "T" * 300})
    blocks = message_blocks(facts)
    assert len(blocks[0]["text"]["text"]) == 150
    section = blocks[1]["text"]["text"]
    assert section.startswith("&lt;!channel&gt; &amp; ") and len(section) == 3000


def test_without_a_link_a_shared_channel_gets_no_page_button() -> None:
    facts = facts_of(record(), notice(link=""))
    assert [b["action_id"] for b in actions(message_blocks(facts))] == ["waitgate:accept", "waitgate:reject"]


def test_the_metadata_names_the_interrupt_and_the_recipient() -> None:
    assert message_metadata(pending())["event_payload"] == {
        "tenantId": "default",
        "runId": "release-42",
        "nodeId": "Approve",
        "interruptId": "01INTERRUPT",
        "kind": "approval",
        "recipient": "alice",
    }


def _texts(value: Any) -> list[str]:
    """Every `text` string anywhere in the blocks (mrkdwn and plain_text alike)."""
    if isinstance(value, dict):
        own = [value["text"]] if isinstance(value.get("text"), str) else []
        return own + [text for member in value.values() for text in _texts(member)]
    if isinstance(value, list):
        return [text for member in value for text in _texts(member)]
    return []


HOSTILE_TITLES = ["<!channel> ship it", "<https://evil.example|Approve here>", "R&D <@U0BOSS> > all"]


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_an_interrupts_own_words_cannot_mention_or_link_in_any_text_we_send(title: str) -> None:
    # Given an interrupt whose title, description and step carry Slack markup
    hostile = record(
        node_id="Step<!here>",
        payload={
            "kind": "approval",
            "key": "ship",
            "data": {"title": title, "description": f"{title} & more", "actions": ["accept", "reject"]},
        },
    )
    for facts in (
        facts_of(hostile, notice(title=title)),
        facts_of(
            replace(hostile, status="resolved", resume_value={"action": "accept", "decidedBy": "a<b>"}),
            notice(title=title, link=""),
        ),
    ):
        # When the message is built / Then no text of it (nor the notification text) holds a raw < or >
        texts = [fallback_text(facts), *_texts(message_blocks(facts))]
        assert all("<" not in text and ">" not in text for text in texts), texts
        bare = [text.replace("&amp;", "").replace("&lt;", "").replace("&gt;", "") for text in texts]
        assert all("&" not in text for text in bare)
        # And the words are still there, escaped as Slack asks
        shown = " ".join(texts)
        assert _escape(title) in shown and "Step&lt;!here&gt;" in shown


def test_an_escaped_title_is_cut_to_the_headers_limit_never_inside_an_entity() -> None:
    facts = facts_of(record(), notice(title="<" * 200))
    header = message_blocks(facts)[0]["text"]["text"]
    assert len(header) <= 150 and header.endswith("&lt;…")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
