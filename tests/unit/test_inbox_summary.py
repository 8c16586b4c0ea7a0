"""The pending index's summary of an interrupt: bounded, display text cut, eligibility never cut, and
read back only when it can be trusted whole (else the inbox reads the node item: fails closed)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from waitgate.approval import AddedApprovers, ApproverFields
from waitgate.run.inbox_summary import (
    MAX_FEEDBACK_BYTES,
    MAX_SUMMARY_BYTES,
    MAX_TITLE_BYTES,
    cut,
    decode,
    encode,
    entry_of,
    summary_of,
)
from waitgate.run.records import InterruptRecord, RunRef

VOTE = {"principal": "alice", "action": "accept", "decidedAt": "2026-11-30T10:05:00Z"}


def approval(**data: Any) -> InterruptRecord:
    base = {"artifactId": "a1", "artifactType": "doc", "title": "Ship it?", "actions": ["accept", "reject"]}
    return InterruptRecord(
        run=RunRef("default", "run-1"),
        node_id="Interrupt",
        interrupt_id="01J00000000000000000000000",
        kind="approval",
        key="ship",
        payload={"kind": "approval", "key": "ship", "data": {**base, **data}},
        task_token="secret-task-token",
        requested_at="2026-11-30T10:00:00.000Z",
    )


def test_a_summary_reads_back_as_what_it_was_and_holds_no_payload() -> None:
    record = approval(
        approversList=["alice"], approverGroupRefs=[], requiredApprovals=2, rejectionPolicy="majority",
        description="d" * 60_000, artifact={"body": "b" * 1000},
    )  # fmt: skip
    record = replace(record, votes=({**VOTE, "feedback": "Fine", "editedArtifactData": "x" * 900},))
    text = encode(summary_of(record))
    assert (
        len(text.encode()) < 400
        and "d" * 100 not in text
        and "secret" not in text
        and "editedArtifactData" not in text
    )
    summary = decode(text, "approval")
    assert summary == summary_of(record)
    assert summary is not None and summary.approval is not None
    assert summary.approval.fields == ApproverFields(("alice",), (), None)  # present-but-empty stays present
    assert (summary.approval.quorum.required_approvals, summary.approval.quorum.rejections_needed) == (2, 2)
    assert [(v.principal, v.action, v.feedback) for v in summary.approval.votes] == [
        ("alice", "accept", "Fine")
    ]


def test_display_text_is_cut_on_a_character_and_says_so() -> None:
    assert cut("short", 10) == "short"
    title = "é" * 1000  # two bytes each: the cut never splits one
    shown = cut(title, MAX_TITLE_BYTES)
    assert len(shown.encode()) <= MAX_TITLE_BYTES and shown.endswith("…") and set(shown[:-1]) == {"é"}
    record = approval(title=title, approversList=["alice"])
    record = replace(record, votes=({**VOTE, "feedback": "f" * 4096},))
    summary = summary_of(record)
    assert summary.title == shown and summary.approval is not None
    (vote,) = summary.approval.votes
    assert vote.feedback is not None and len(vote.feedback.encode()) <= MAX_FEEDBACK_BYTES
    assert decode(encode(summary), "approval") == summary


def test_terms_that_do_not_fit_are_never_cut_the_summary_says_read_the_item() -> None:
    many = [f"approver-{n:04d}-{'p' * 180}" for n in range(40)]  # ~8 KB of approvers
    record = approval(approversList=many)
    text = encode(summary_of(record))
    assert len(text.encode()) <= MAX_SUMMARY_BYTES
    assert json.loads(text) == {"v": 1, "title": "Ship it?", "readItem": True}
    assert decode(text, "approval") is None  # the reader reads the node item, and checks its own fields
    assert entry_of(record).summary.approval is not None  # which holds them whole
    assert entry_of(record).summary.approval.fields.approvers_list == tuple(many)  # type: ignore[union-attr]


def test_the_approvers_a_fired_escalation_step_added_survive_the_summary() -> None:
    record = approval(approversList=["alice"])
    policy = {
        "steps": [
            {"afterMs": 60_000, "remind": True},
            {"afterMs": 120_000, "addApprovers": {"approverGroupRefs": ["oncall"]}},
        ]
    }
    record = replace(record, escalation=policy, escalated=(0, 1))
    summary = decode(encode(summary_of(record)), "approval")
    assert summary is not None and summary.approval is not None
    assert summary.approval.added == (AddedApprovers(1, ApproverFields(None, ("oncall",), None)),)


@pytest.mark.parametrize(
    "stored",
    [
        None,
        "not json",
        "[]",
        '{"v": 2, "title": "t", "approval": {}}',  # a version this reader does not know
        '{"v": 1, "title": "t"}',  # an approval without its terms: never "open"
        '{"v": 1, "title": "t", "readItem": true}',
        '{"v": 1, "title": "t", "approval": {"approversList": ["alice"], "requiredApprovals": 1,'
        ' "rejectionPolicy": "single-veto", "overrideBypassesQuorum": false, "newRule": ["x"]}}',
        '{"v": 1, "title": "t", "approval": {"approversList": "alice", "requiredApprovals": 1,'
        ' "rejectionPolicy": "single-veto", "overrideBypassesQuorum": false}}',
        '{"v": 1, "title": "t", "approval": {"approversList": ["alice"], "requiredApprovals": 0,'
        ' "rejectionPolicy": "single-veto", "overrideBypassesQuorum": false}}',
        '{"v": 1, "title": "t", "approval": {"approversList": ["alice"], "requiredApprovals": 1,'
        ' "rejectionPolicy": "single-veto", "overrideBypassesQuorum": false,'
        ' "added": [{"approversList": ["m"]}]}}',  # a step without its index
    ],
)
def test_an_approval_summary_it_cannot_trust_whole_is_none(stored: str | None) -> None:
    assert decode(stored, "approval") is None


def test_the_other_kinds_carry_only_their_title() -> None:
    data = {"questions": [{"id": "q", "question": "Why?"}]}
    record = InterruptRecord(
        run=RunRef("default", "run-2"), node_id="Ask", interrupt_id="01J00000000000000000000001",
        kind="clarification", key="ask", task_token="t", requested_at="2026-11-30T10:00:00.000Z",
        payload={"kind": "clarification", "key": "ask", "data": data},
    )  # fmt: skip
    text = encode(summary_of(record))
    assert json.loads(text) == {"v": 1, "title": "Why?"}
    assert decode(text, "clarification") == summary_of(record)
    assert decode('{"v": 1, "title": "Why?", "approval": {}}', "clarification") is None


def test_who_another_kinds_task_asked_survives_the_summary_binding() -> None:
    data = {"questions": [{"id": "q", "question": "Why?"}]}
    record = InterruptRecord(
        run=RunRef("default", "run-3"), node_id="Ask", interrupt_id="01J00000000000000000000002",
        kind="clarification", key="ask", task_token="t", requested_at="2026-11-30T10:00:00.000Z",
        payload={"kind": "clarification", "key": "ask", "data": data}, notify={"groupRefs": ["ops"]},
    )  # fmt: skip
    text = encode(summary_of(record))
    assert json.loads(text) == {
        "v": 1,
        "title": "Why?",
        "asked": {"approversList": [], "approverGroupRefs": ["ops"]},
    }
    summary = decode(text, "clarification")
    assert summary == summary_of(record)
    assert summary is not None and summary.asked is not None
    assert summary.asked.fields == ApproverFields((), ("ops",), None)
    # Then what it cannot trust whole (not binding, malformed, on an approval) is read from the item
    assert decode('{"v": 1, "title": "t", "asked": {"approverGroupRefs": ["ops"]}}', "clarification") is None
    assert decode('{"v": 1, "title": "t", "asked": {"approversList": "ann"}}', "custom") is None
    assert decode('{"v": 1, "title": "t", "asked": {"approversList": []}}', "approval") is None


def test_an_action_bound_approval_carries_its_action_in_one_bounded_line() -> None:
    from waitgate.run.inbox_items import pending_item
    from waitgate.run.inbox_summary import MAX_ACTION_BYTES

    transfer = {"name": "transfer", "args": {"amount": 100, "to": "acct-2"}, "target": "acct-1"}
    record = approval(approversList=["alice"], action=transfer)
    summary = decode(encode(summary_of(record)), "approval")
    assert summary is not None and summary.action == 'transfer on acct-1: {"amount":100,"to":"acct-2"}'
    item = pending_item(entry_of(record), "alice", "list")
    assert item["actionSummary"] == summary.action
    # a long one is cut like the title; an approval without an action, and the other kinds, have none
    long = approval(action={"name": "import", "args": {"rows": ["r" * 50] * 40}})
    assert len(summary_of(long).action.encode()) <= MAX_ACTION_BYTES  # type: ignore[union-attr]
    assert "actionSummary" not in pending_item(entry_of(approval()), "alice", "list")
    assert decode(json.dumps({"v": 1, "title": "t", "action": "x"}), "clarification") is None
