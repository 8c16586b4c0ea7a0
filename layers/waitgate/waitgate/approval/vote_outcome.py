"""Whether a valid resume value ends the suspend now, or is only recorded (an ask, a quorum vote).

Approvals go through the quorum rules (`waitgate.approval`): the stored votes are read back as
history (never re-resolved), the caller's vote is cast with its eligibility record, and the outcome
says what to write: a pending vote, a question, or the decision with every vote.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from waitgate.approval import (
    Asked,
    Decided,
    EligibilityRecord,
    Pending,
    Vote,
    cast_vote,
    decision_resume_value,
    vote_from_json,
    vote_to_json,
)
from waitgate.approval.approver_config import ApprovalConfig, quorum_policy
from waitgate.approval.quorum import Action
from waitgate.run.event_log import EventEntry
from waitgate.run.records import InterruptRecord, JSONObject
from waitgate.run.size_limits import check_ask, check_vote, vote_share


@dataclass(frozen=True)
class Decision:
    resolved: bool
    resume_value: Any
    record: InterruptRecord  # the interrupt with what this answer adds (votes, asks)
    events: tuple[EventEntry, ...] = ()  # debug events for what did not resolve
    ask: JSONObject | None = None  # a question the agent side must be told about


def decide(
    record: InterruptRecord,
    resume_value: Any,
    now: str,
    eligibility: EligibilityRecord | None,
    config: ApprovalConfig,
) -> Decision:
    """`eligibility` is the caller's record for an approval (None for the other kinds)."""
    if record.kind != "approval" or eligibility is None:
        return Decision(resolved=True, resume_value=resume_value, record=record)
    votes = tuple(vote_from_json(stored) for stored in record.votes)
    policy = quorum_policy(record.data, config)
    vote = _vote(resume_value, eligibility)
    if vote.action != "ask":
        check_vote(vote_to_json(vote), vote_share(policy.required_approvals, policy.rejections_needed))
    outcome = cast_vote(policy, votes, vote)
    if isinstance(outcome, Asked):
        return _asked(record, outcome, now)
    if isinstance(outcome, Pending):
        return _pending(record, outcome)
    return _decided(record, outcome)


def _vote(resume_value: JSONObject, eligibility: EligibilityRecord) -> Vote:
    fields = {name: value for name, value in resume_value.items() if name not in {"action", "decidedAt"}}
    return Vote(
        principal=eligibility.principal,
        action=cast(Action, resume_value["action"]),
        decided_at=resume_value["decidedAt"],
        eligibility=eligibility,
        fields=fields,
    )


def _decided(record: InterruptRecord, decided: Decided) -> Decision:
    """The deciding vote: every vote is kept on the interrupt and delivered with the decision."""
    stored = tuple(vote_to_json(vote) for vote in decided.votes)
    return Decision(
        resolved=True,
        resume_value=decision_resume_value(decided),
        record=replace(record, votes=stored),
    )


def _pending(record: InterruptRecord, pending: Pending) -> Decision:
    """A vote that does not decide: stored on the interrupt, logged in debug."""
    vote = vote_to_json(pending.votes[-1])
    updated = replace(record, votes=tuple(vote_to_json(v) for v in pending.votes), version=record.version + 1)
    event = EventEntry(
        "interrupt.voted",
        {"nodeId": record.node_id, "interruptId": record.interrupt_id, "vote": vote},
        record.node_id,
        "debug",
    )
    return Decision(resolved=False, resume_value=None, record=updated, events=(event,))


def _asked(record: InterruptRecord, asked: Asked, now: str) -> Decision:
    """`ask` never exits the suspend: the question is kept, shown on inspect, told to the agent side."""
    ask = {**vote_to_json(asked.question), "askedAt": now}
    check_ask(ask, len(record.asks))
    updated = replace(record, asks=(*record.asks, ask), version=record.version + 1)
    event = EventEntry(
        "interrupt.asked",
        {"nodeId": record.node_id, "interruptId": record.interrupt_id, "ask": ask},
        record.node_id,
        "debug",
    )
    return Decision(resolved=False, resume_value=None, record=updated, events=(event,), ask=ask)
