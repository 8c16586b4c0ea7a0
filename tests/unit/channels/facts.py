"""Message facts for the channel tests: one pending approval for alice, and its variations."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from waitgate.channels.message_facts import MessageFacts, facts_of
from waitgate.run.notices import InterruptNotice
from waitgate.run.records import InterruptRecord, RunRef

RUN = RunRef("default", "release-42")
LINK = "https://links.example.com/interrupts/ow2.hs256.k1.eyJzdWIiOiJhbGljZSJ9.c2ln"


def record(**changes: Any) -> InterruptRecord:
    data = {
        "artifactId": "r42",
        "artifactType": "release",
        "title": "Ship release 42?",
        "description": "Release 42 goes to production.",
        "actions": ["accept", "reject", "refine"],
        "approversList": ["alice", "ben"],
        "requiredApprovals": 2,
    }
    base = InterruptRecord(
        run=RUN,
        node_id="Approve",
        interrupt_id="01INTERRUPT",
        kind="approval",
        key="ship",
        payload={"kind": "approval", "key": "ship", "data": data},
        task_token="task",
        requested_at="2026-11-30T10:00:00Z",
        deadline="2026-11-30T18:00:00Z",
    )
    return replace(base, **changes)


def notice(**changes: Any) -> InterruptNotice:
    base = InterruptNotice(
        run=RUN,
        node_id="Approve",
        interrupt_id="01INTERRUPT",
        kind="approval",
        recipient="alice",
        link=LINK,
        expires_at="2026-11-30T10:30:00Z",
        title="Ship release 42?",
        workflow="waitgate-release",
    )
    return replace(base, **changes)


def pending(**changes: Any) -> MessageFacts:
    return facts_of(record(**changes), notice())


def vote(principal: str, action: str) -> dict[str, Any]:
    return {
        "principal": principal,
        "action": action,
        "decidedAt": "2026-11-30T10:01:00Z",
        "eligibility": {"principal": principal, "matchedBy": "list", "resolvedAt": "2026-11-30T10:01:00Z"},
    }
