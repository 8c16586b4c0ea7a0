"""What the page says besides its form (pure): an approval's rule and progress in words, your own vote
once cast, times in UTC and relative, a JSON value rendered readably, and the pages that say what
came of a request."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from waitgate.page import PageContext, Resolution, interrupt_page, resolved_page
from waitgate.page.answered import decision_summary
from waitgate.page.approval_view import rejection_text, rule_text, waiting_text
from waitgate.page.readable import readable
from waitgate.page.times import moment_html, relative_text, utc_text

NOW = datetime(2026, 12, 1, 10, 40, tzinfo=UTC)
ACCEPT = {"principal": "ann", "action": "accept", "decidedAt": "2026-12-01T10:02:00Z", "feedback": "LGTM"}


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        ({}, "One approval decides"),
        ({"requiredApprovals": 2, "approversList": ["ann", "bob", "cy"]}, "2 of 3 approvals needed"),
        (
            {"requiredApprovals": 2, "approversList": ["ann"], "approverGroupRefs": ["sre"]},
            "2 approvals needed",
        ),
        ({"requiredApprovals": 4, "approversList": ["ann", "bob"]}, "4 approvals needed"),
    ],
)
def test_the_rule_in_words(data: dict[str, Any], rule: str) -> None:
    assert rule_text(data) == rule


def test_the_rejection_rule_and_what_a_vote_waits_for() -> None:
    assert rejection_text({}) == "A single reject rejects it."
    assert rejection_text({"requiredApprovals": 3, "rejectionPolicy": "majority"}) == "2 rejects reject it."
    assert waiting_text({"requiredApprovals": 3}, (ACCEPT,)) == "Waiting for 2 more approvals."
    majority = {"requiredApprovals": 2, "rejectionPolicy": "majority"}
    assert waiting_text(majority, (ACCEPT,)) == "Waiting for 1 more approval (or 2 more rejects)."


def approval_context(**more: Any) -> PageContext:
    data = {
        "artifactId": "r",
        "artifactType": "release",
        "title": "Ship?",
        "requiredApprovals": 2,
        "approversList": ["ann", "alice", "bob"],
        "overrideBypassesQuorum": True,
        "actions": ["accept", "reject", "ask"],
    }
    defaults: dict[str, Any] = {
        "payload": {"kind": "approval", "key": "k", "data": data},
        "run_id": "run-1",
        "node_id": "ApproveRelease",
        "expires_at": "2026-12-01T11:10:00Z",
        "principal": "alice",
        "now": NOW,
        "deadline": "2026-12-01T14:00:00Z",
    }
    return PageContext(**{**defaults, **more})


def test_an_approval_says_who_decides_the_step_until_when_and_how_far_it_got() -> None:
    html = interrupt_page(approval_context(votes=(ACCEPT,))).html
    assert "<dt>You decide as</dt><dd><strong>alice</strong></dd>" in html
    assert "<dt>Step</dt><dd>Approve release</dd>" in html
    assert "Tue 1 Dec 2026, 14:00 UTC</time> <span" in html and "(in 3 h 20 min)" in html
    assert "Tue 1 Dec 2026, 11:10 UTC</time>" in html and "(in 30 min)" in html
    assert "<strong>2 of 3 approvals needed</strong> · 1 of 2 so far" in html
    assert "An on-call override may decide alone." in html
    assert "<strong>ann</strong> accepted" in html and "10:02 UTC</time> — <q>LGTM</q>" in html
    assert 'value="accept"' in html


def test_a_link_whose_deadline_comes_first_says_so_once() -> None:
    html = interrupt_page(approval_context(deadline="2026-12-01T11:00:00Z")).html
    assert "Decide by" in html and "This link works until" not in html


def test_your_own_vote_says_it_waits_first_and_offers_only_a_question() -> None:
    mine = {**ACCEPT, "principal": "alice"}
    html = interrupt_page(approval_context(votes=(mine,))).html
    assert html.index("Your vote is recorded") < html.index('<dl class="meta">')
    assert "Waiting for 1 more approval." in html
    assert 'value="accept"' not in html and 'value="ask"' in html and "You can still ask a question" in html
    # And another's link on the same interrupt still offers the decision
    assert 'value="accept"' in interrupt_page(approval_context(votes=(mine,), principal="bob")).html


def test_what_an_escalation_policy_decides_at_the_deadline_is_said_beside_it() -> None:
    default = {"action": "reject", "feedback": "No decision in time."}
    html = interrupt_page(approval_context(on_deadline=default)).html
    assert "<dt>If nobody decides in time</dt><dd>Reject — <q>No decision in time.</q></dd>" in html
    value = {"action": "reject", "decidedAt": "2026-12-01T14:00:00Z", "decidedBy": "waitgate:deadline"}
    summary = decision_summary(Resolution("approval", {}, value), NOW)
    assert "<dd>nobody in time: the deadline&#x27;s default decision</dd>" in summary


def test_a_link_without_a_named_person_says_so() -> None:
    html = interrupt_page(approval_context(principal="token:abc")).html
    assert "<strong>whoever holds this link</strong>" in html


def test_times_in_utc_and_relative() -> None:
    assert utc_text(datetime(2026, 12, 1, 14, 0, tzinfo=UTC)) == "Tue 1 Dec 2026, 14:00 UTC"
    moments = {"2026-12-01T10:40:30Z": "in less than a minute", "2026-12-01T10:45:00Z": "in 5 min"}
    moments |= {"2026-12-01T14:00:00Z": "in 3 h 20 min", "2026-12-04T11:40:00Z": "in 3 days 1 h"}
    moments |= {"2026-12-02T10:40:00Z": "in 1 day", "2026-12-01T10:37:00Z": "3 min ago"}
    # a decision made a moment ago (or right now) is in the past, not "in less than a minute"
    moments |= dict.fromkeys(("2026-12-01T10:39:59.400Z", NOW.isoformat()), "less than a minute ago")
    for moment, words in moments.items():
        assert relative_text(datetime.fromisoformat(moment), NOW) == words
    assert moment_html("not a time", NOW) == "not a time"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, '<span class="none">none</span>'),
        (True, "yes"),
        (2.0, "2"),
        ("<b>", '<span class="line">&lt;b&gt;</span>'),
        ("a\nb", '<span class="text">a\nb</span>'),
        (["x", 1], '<ul class="items"><li><span class="line">x</span></li><li>1</li></ul>'),
        (
            {"k": "v"},
            '<table class="kv"><tbody><tr><th scope="row">k</th><td><span class="line">v</span></td></tr>'
            "</tbody></table>",
        ),
    ],
)
def test_a_value_is_rendered_readably(value: Any, shown: str) -> None:
    assert readable(value) == shown


def test_long_values_are_folded_like_objects_are_one_table_and_depth_is_json() -> None:
    long = readable("word " * 200)
    assert long.startswith('<details class="fold"><summary>') and "(show all 1,000 characters)" in long
    many = readable(list(range(13)))
    assert many.count("<li>") == 13 and "<summary>3 more</summary>" in many
    rows = readable([{"id": "a", "n": 1}, {"id": "b"}])
    assert '<th scope="col">id</th><th scope="col">n</th>' in rows and "<td></td>" in rows
    assert 'role="region" aria-label="Table of 2 rows"' in rows and 'tabindex="0"' in rows
    deep = readable({"a": {"b": {"c": {"d": {"e": 1}}}}})
    assert '<pre class="json" tabindex="0">{\n  &quot;e&quot;: 1\n}</pre>' in deep


def test_what_was_decided_by_whom_and_when() -> None:
    value = {
        "action": "refine",
        "decidedAt": "2026-12-01T10:39:00Z",
        "decidedBy": "bob",
        "refineFeedback": {"scope": "items", "itemIds": ["c1", "c2"], "text": "Split them"},
        "votes": [ACCEPT, {"principal": "bob", "action": "refine"}],
    }
    html = resolved_page(
        Resolution("approval", {"title": "Ship?"}, value, "2026-12-01T10:39:01Z"), "run-1", NOW
    ).html
    assert "<h1>Already resolved</h1>" in html and "Ship? — this request was already answered." in html
    for shown in ("<dd>Request changes</dd>", "<dd>bob</dd>", "<dd>Split them</dd>", "<dd>c1, c2</dd>"):
        assert shown in html
    assert "10:39 UTC</time>" in html and "<strong>ann</strong> accepted</li>" in html
    review = decision_summary(Resolution("low-confidence", {}, {"confirmed": False, "decision": "x"}), NOW)
    assert "<dd>Decided otherwise</dd>" in review and '<dd><span class="line">x</span></dd>' in review
    other = decision_summary(Resolution("custom", {}, {"ok": True}, "2026-12-01T10:39:00Z", "carol"), NOW)
    assert "<dt>What was sent</dt>" in other and "<dd>carol</dd>" in other and "(1 min ago)" in other


def test_a_custom_request_without_a_schema_says_once_what_its_box_takes() -> None:
    payload = {"kind": "custom", "key": "k", "data": {"customKind": "budget", "payload": {"limit": 5}}}
    html = interrupt_page(approval_context(payload=payload)).html
    assert html.count(">Your answer<") == 1  # the heading, not the box's label again
    assert "Your answer, as JSON" in html and "for example" in html


def test_an_item_opened_in_the_inbox_has_no_footer_of_its_own() -> None:
    from waitgate.page.inbox import inbox_fragment

    fragment = inbox_fragment(approval_context())
    assert "footer" not in fragment and "waitgate ·" not in fragment
    assert '<p class="where">Run <code>run-1</code>' in fragment
