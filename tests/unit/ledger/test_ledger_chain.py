"""The chain's rules: canonical hashing, each entry linked to the one before, the entry's facts."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.ledger.chain_samples import chain
from waitgate.ledger.chain import GENESIS, Head, canonical, digest, entry_hash, next_entry
from waitgate.ledger.entries import facts_of, is_ledgered

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.text(max_size=8),  # I-JSON, as every input is
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def test_canonical_form_is_rfc_8785() -> None:
    assert canonical({"b": 1, "a": [1.0, "é", None]}) == '{"a":[1,"é",null],"b":1}'.encode()


@given(JSON)
def test_the_canonical_form_does_not_depend_on_member_order(value: object) -> None:
    reordered = json.loads(json.dumps(value, sort_keys=True))
    assert canonical(value) == canonical(reordered)
    assert digest(value) == hashlib.sha256(canonical(value)).hexdigest()


def test_each_entry_links_to_the_one_before_and_counts_on() -> None:
    entries, head = chain(3)
    assert [entry["seq"] for entry in entries] == [1, 2, 3]
    assert entries[0]["prev"] == GENESIS
    assert entries[1]["prev"] == entries[0]["hash"] and entries[2]["prev"] == entries[1]["hash"]
    assert all(entry_hash(entry) == entry["hash"] for entry in entries)
    assert (head["seq"], head["hash"], head["tenantId"]) == (3, entries[2]["hash"], "acme")


def test_an_entry_hash_covers_every_member() -> None:
    entry = next_entry(Head("acme"), "run-1#1", {"type": "interrupt.voted", "comment": "ok"})
    assert entry_hash({**entry, "comment": "ok!"}) != entry["hash"]
    assert entry_hash({**entry, "hash": "anything"}) == entry["hash"]


def test_a_resolution_says_who_decided_how_with_the_tally_and_the_policy() -> None:
    votes = [
        {"principal": "bob", "action": "accept", "eligibility": {"matchedBy": "group:release"}},
        {"principal": "alice", "action": "accept", "eligibility": {"matchedBy": "approversList"}},
    ]
    resume = {"action": "accept", "decidedAt": "t", "feedback": "ship it", "votes": votes}
    payload = {"nodeId": "Approve", "interruptId": "i-1", "kind": "approval", "resumeValue": resume}
    asked = {"kind": "approval", "key": "k", "data": {"requiredApprovals": 2, "approversList": ["alice"]}}
    interrupt = {"interruptId": "i-1", "kind": "approval", "payload": asked}
    facts = facts_of("interrupt.resolved", "t", "run-1", "Approve", payload, interrupt)
    assert facts["decidedBy"] == {"principal": "alice", "matchedBy": "approversList"}
    assert facts["comment"] == "ship it" and facts["action"] == "accept"
    assert facts["tally"]["counts"] == {"accept": 2}
    assert facts["policy"] == {"requiredApprovals": 2, "approversList": ["alice"]}
    assert facts["payloadDigest"] == digest(asked) and facts["resumeValueDigest"] == digest(resume)
    assert facts["actionFingerprint"] is None


def test_the_actions_fingerprint_and_the_requester_when_the_data_carries_them() -> None:
    action = {"name": "transfer", "args": {"amount": 100}}
    asked = {"kind": "approval", "key": "k", "data": {"action": action, "requestedBy": "carol"}}
    facts = facts_of("interrupt.requested", "t", "run-1", "Approve", asked)
    assert facts["actionFingerprint"] == digest(action)
    assert facts["decidedBy"] == {"principal": "carol", "matchedBy": "requestedBy"}
    assert facts["via"] == "workflow"


def test_a_decision_that_names_its_own_fingerprint_is_recorded_with_it() -> None:
    asked = {
        "kind": "approval",
        "key": "k",
        "data": {"action": {"name": "transfer", "args": {"amount": 100}}},
    }
    interrupt = {"interruptId": "i", "kind": "approval", "payload": asked}
    edited = digest({"name": "transfer", "args": {"amount": 90}})
    resume = {"action": "edit", "decidedAt": "t", "actionFingerprint": edited, "votes": []}
    facts = facts_of(
        "interrupt.resolved", "t", "r", "n", {"interruptId": "i", "resumeValue": resume}, interrupt
    )
    assert facts["actionFingerprint"] == edited


def test_a_deadline_decision_says_so() -> None:
    resume = {"action": "reject", "decidedAt": "t", "decidedBy": "waitgate:deadline", "votes": []}
    facts = facts_of("interrupt.resolved", "t", "r", "n", {"interruptId": "i", "resumeValue": resume})
    assert facts["via"] == "deadline"
    assert facts["decidedBy"] == {"principal": "waitgate:deadline", "matchedBy": None}
    expired = facts_of("interrupt.expired", "t", "r", "n", {"interruptId": "i", "deadline": "t"})
    assert expired["via"] == "deadline" and expired["action"] == "expire"


def test_which_events_are_ledgered() -> None:
    ledgered = ["interrupt.requested", "interrupt.voted", "interrupt.resolved", "interrupt.escalated"]
    assert all(is_ledgered(kind) for kind in [*ledgered, "interrupt.expired", "delegation.granted"])
    assert not any(
        is_ledgered(kind) for kind in ["approval.resolved", "notification.sent", "interrupt.asked"]
    )


def test_what_an_answer_came_by_is_the_callers_credential_unless_the_path_says_more() -> None:
    from waitgate.ledger.entries import via_of
    from waitgate.run.identity import Caller

    vias = {kind: via_of(Caller("alice", "acme", kind)) for kind in ("jwt", "token", "slack", "webhook")}
    assert vias == {"jwt": "run", "token": "link", "slack": "slack", "webhook": "webhook"}
    vote = {"principal": "alice", "action": "accept", "eligibility": {"matchedBy": "list"}}
    facts = facts_of("interrupt.voted", "t", "r", "n", {"interruptId": "i", "vote": vote, "via": "inbox"})
    assert facts["via"] == "inbox"
