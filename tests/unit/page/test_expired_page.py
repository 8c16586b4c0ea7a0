"""The page of an expired link: it names the request, its run and its step, leads to the inbox, asks
for a fresh link only while the request waits for a named person, and says what was decided once it
was (by the deadline, or by whom). Pure rendering; every value escaped."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from waitgate.escalation.deadline_decision import decided_by_deadline
from waitgate.page import Resolution
from waitgate.page.expired import ExpiredFacts, expired_page, fresh_link_page
from waitgate.run.records import InterruptRecord, RunRef

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
FACTS = ExpiredFacts(
    run_id="release-<42>",
    node_id="ApproveRelease",
    expired_at="2026-11-30T10:30:00Z",
    kind="approval",
    data={"title": "Ship <4.2>?"},
    waits=True,
    fresh_token="ow2.hs256.k1.payload.mac",
)


def test_a_waiting_request_s_expired_link_offers_the_inbox_and_a_fresh_link() -> None:
    html = expired_page(FACTS, NOW).html
    assert "<h1>This link has expired</h1>" in html
    assert "Ship &lt;4.2&gt;?" in html and "release-&lt;42&gt;" in html and "Approve release" in html
    assert '<a href="../inbox">Open your inbox</a>' in html
    assert '<form method="post" action="../fresh-links" class="fresh-link">' in html
    assert '<input type="hidden" name="token" value="ow2.hs256.k1.payload.mac">' in html
    assert "E-mail me a fresh link" in html and "This link worked until" in html


def test_a_link_without_a_person_or_a_request_that_no_longer_waits_gets_no_form() -> None:
    nameless = expired_page(replace(FACTS, fresh_token=None), NOW).html
    assert "<form" not in nameless and "ask whoever sent it" in nameless and "../inbox" in nameless
    ended = expired_page(replace(FACTS, waits=False, fresh_token=None), NOW).html
    assert "<form" not in ended and "no longer waits" in ended


def test_a_decided_request_s_expired_link_says_what_by_whom_and_when() -> None:
    decision = {"action": "reject", "decidedAt": "2026-11-30T11:00:00Z", "decidedBy": "waitgate:deadline"}
    resolution = Resolution("approval", FACTS.data, decision, "2026-11-30T11:00:00Z")
    html = expired_page(replace(FACTS, waits=False, resolution=resolution, by_deadline=True), NOW).html
    assert "<h1>Decided by the deadline</h1>" in html and "Reject" in html
    assert "nobody in time: the deadline&#x27;s default decision" in html and "2026-11-30T11:00:00Z" in html
    assert "<form" not in html
    by_bob = Resolution("approval", FACTS.data, {**decision, "decidedBy": "bob"}, "2026-11-30T11:00:00Z")
    assert "<h1>Already decided</h1>" in expired_page(replace(FACTS, resolution=by_bob), NOW).html


def test_the_fresh_link_answer_says_nothing_of_who_may_decide() -> None:
    html = fresh_link_page().html
    assert "<h1>Check your e-mail</h1>" in html and "If this link was made for you" in html
    assert 'href="inbox"' in html


def record(**fields: object) -> InterruptRecord:
    base = InterruptRecord(
        RunRef("default", "r"),
        "Gate",
        "i1",
        "custom",
        "k",
        {"kind": "custom", "data": {}},
        "t",
        "2026-11-30T10:00:00Z",
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def test_decided_by_the_deadline_is_the_policy_s_decision_not_a_person_s() -> None:
    policy = {"onDeadline": {"resolveWith": {"done": False}}}
    at_deadline = record(
        status="resolved",
        deadline="2026-11-30T11:00:00Z",
        resolved_at="2026-11-30T11:00:00.200Z",
        escalation=policy,
    )
    assert decided_by_deadline(at_deadline)
    assert not decided_by_deadline(
        replace(at_deadline, resolved_at="2026-11-30T10:59:00Z")
    )  # a person, in time
    assert not decided_by_deadline(replace(at_deadline, escalation=None))
    assert not decided_by_deadline(replace(at_deadline, status="expired"))
    approval = replace(
        at_deadline, kind="approval", resume_value={"action": "reject", "decidedBy": "waitgate:deadline"}
    )
    assert decided_by_deadline(approval)
    assert not decided_by_deadline(replace(approval, resume_value={"action": "reject", "decidedBy": "bob"}))
