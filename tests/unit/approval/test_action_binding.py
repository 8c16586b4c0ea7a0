"""Action-bound approvals: the fingerprint, what the decision carries, and `authorizes`."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitgate.errors import InterruptPayloadInvalidError, ValidationFailedError
from waitgate.payloads import parse_interrupt_payload
from waitgate.payloads.action_fingerprint import action_fingerprint
from waitgate.run.resume_values import resume_for
from waitgate.sdk import ApprovalDecision

AT = "2026-12-03T10:00:00Z"
TRANSFER = {"name": "transfer", "args": {"amount": 100, "to": "acct-2"}, "target": "acct-1"}


def approval(**data: Any) -> dict[str, Any]:
    base = {"artifactId": "t-1", "artifactType": "transfer", "title": "Transfer"}
    return {
        "kind": "approval",
        "key": "k",
        "data": base | {"actions": ["accept", "reject", "edit-accept"]} | data,
    }


def test_the_fingerprint_is_sha256_over_rfc8785_canonical_json() -> None:
    # Given the same action with its members reordered and a number spelled 100.0
    reordered = {"target": "acct-1", "args": {"to": "acct-2", "amount": 100.0}, "name": "transfer"}
    # Then both have one fingerprint, the SHA-256 of RFC 8785's bytes; another amount has another
    import hashlib

    canonical = b'{"args":{"amount":100,"to":"acct-2"},"name":"transfer","target":"acct-1"}'
    assert action_fingerprint(TRANSFER) == "sha256:" + hashlib.sha256(canonical).hexdigest()
    assert action_fingerprint(reordered) == action_fingerprint(TRANSFER)
    assert action_fingerprint(TRANSFER | {"args": {"amount": 1000, "to": "acct-2"}}) != action_fingerprint(
        TRANSFER
    )


def test_an_action_with_no_canonical_form_is_refused_at_request_time() -> None:
    # Given an integer RFC 8785 cannot write (past 2^53): the schema takes it, the models do not
    payload = approval(action={"name": "transfer", "args": {"amount": 2**60}})
    with pytest.raises(InterruptPayloadInvalidError) as refused:
        parse_interrupt_payload(payload)
    assert "data.action" in refused.value.detail


def test_an_accept_carries_the_requested_action_and_its_fingerprint() -> None:
    value = resume_for("approval", approval(action=TRANSFER), {"action": "accept", "decidedAt": AT}, "alice")
    assert value["boundAction"] == TRANSFER
    assert value["actionFingerprint"] == action_fingerprint(TRANSFER)


def test_an_edit_accept_carries_the_edited_action_and_its_new_fingerprint() -> None:
    edited = TRANSFER | {"args": {"amount": 90, "to": "acct-2"}}
    raw = {"action": "edit-accept", "editedAction": edited, "decidedAt": AT}
    value = resume_for("approval", approval(action=TRANSFER), raw, "alice")
    assert (value["boundAction"], value["actionFingerprint"]) == (edited, action_fingerprint(edited))


@pytest.mark.parametrize(
    ("payload", "raw", "path"),
    [
        (approval(), {"action": "edit-accept", "editedAction": TRANSFER, "decidedAt": AT}, "editedAction"),
        (approval(action=TRANSFER), {"action": "accept", "editedAction": TRANSFER, "decidedAt": AT},
         "editedAction"),
        (approval(action=TRANSFER), {"action": "accept", "actionFingerprint": "sha256:0", "decidedAt": AT},
         "actionFingerprint"),
        (approval(action=TRANSFER), {"action": "accept", "boundAction": TRANSFER, "decidedAt": AT},
         "boundAction"),
    ],
    ids=["no action to edit", "edited action without edit-accept", "forged fingerprint", "forged action"],
)  # fmt: skip
def test_a_resolver_cannot_bind_what_the_request_did_not(payload: Any, raw: Any, path: str) -> None:
    with pytest.raises(ValidationFailedError) as refused:
        resume_for("approval", payload, raw, "alice")
    assert refused.value.extensions["path"] == f"resumeValue.{path}"


def decision(payload: dict[str, Any], raw: dict[str, Any]) -> ApprovalDecision:
    return ApprovalDecision.from_resume(resume_for("approval", payload, raw, "alice"))


def test_authorizes_exactly_the_approved_action() -> None:
    accepted = decision(approval(action=TRANSFER), {"action": "accept", "decidedAt": AT})
    assert accepted.authorizes(TRANSFER)
    assert accepted.authorizes(
        {"name": "transfer", "target": "acct-1", "args": {"to": "acct-2", "amount": 100.0}}
    )
    assert not accepted.authorizes(TRANSFER | {"args": {"amount": 1000, "to": "acct-2"}})
    assert not accepted.authorizes({"name": "transfer", "args": {"amount": 100, "to": "acct-2"}})  # no target


def test_an_edit_accept_authorizes_only_the_edited_action() -> None:
    edited = TRANSFER | {"args": {"amount": 90, "to": "acct-2"}}
    raw = {"action": "edit-accept", "editedAction": edited, "decidedAt": AT}
    decided = decision(approval(action=TRANSFER), raw)
    assert decided.authorizes(edited)
    assert not decided.authorizes(TRANSFER)


def test_a_rejection_or_an_unbound_approval_authorizes_nothing() -> None:
    rejected = decision(approval(action=TRANSFER), {"action": "reject", "decidedAt": AT})
    unbound = decision(approval(), {"action": "accept", "decidedAt": AT})
    assert rejected.action_fingerprint == action_fingerprint(TRANSFER)  # it says what it refused
    assert not rejected.authorizes(TRANSFER)
    assert not unbound.authorizes(TRANSFER)
    assert not unbound.authorizes({"name": "x", "args": {"big": 2**60}})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53 - 1), 2**53 - 1) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


@given(args=st.dictionaries(st.text(max_size=4), json_values, max_size=4), other=json_values)
def test_authorizes_holds_for_any_args_and_no_other(args: dict[str, Any], other: Any) -> None:
    action = {"name": "op", "args": args}
    accepted = decision(approval(action=action), {"action": "accept", "decidedAt": AT})
    assert accepted.authorizes(action)
    changed = {"name": "op", "args": args | {"\x00extra": other}}
    assert not accepted.authorizes(changed)
