"""What the models add to the schema, and the helpers around the payload."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.payloads import (
    INTERRUPT_KINDS,
    LEGACY_EVENT_PREFIX_BY_KIND,
    SNAPSHOT_STATUS_BY_KIND,
    ApprovalPayload,
    parse_interrupt_payload,
    payload_to_json,
    snapshot_status_for,
)
from waitgate.schemas import load_schema

DUPLICATE_IDS = {
    "kind": "clarification", "key": "k",
    "data": {"questions": [{"id": "a", "question": "One?"}, {"id": "a", "question": "Two?"}]},
}  # fmt: skip
APPROVAL = {
    "kind": "approval", "key": "k",
    "data": {"artifactId": "a", "artifactType": "doc", "title": "T", "actions": ["accept"]},
}  # fmt: skip


def test_duplicate_question_ids_pass_the_schema_but_not_the_models(
    validator: Draft202012Validator,
) -> None:
    # Given two questions sharing an id: JSON Schema cannot express "unique by id"
    assert validator.is_valid(DUPLICATE_IDS)
    # When the models parse it / Then the extra rule refuses it, naming the id
    with pytest.raises(InterruptPayloadInvalidError) as caught:
        parse_interrupt_payload(DUPLICATE_IDS)
    assert caught.value.detail == "data.questions: question id 'a' is used more than once"


@pytest.mark.parametrize(
    ("payload", "detail"),
    [
        ({**APPROVAL, "data": {**APPROVAL["data"], "actions": ["accept", "nope"]}},
         "data.actions[1]: Input should be 'accept', 'reject', 'refine', 'edit-accept' or 'ask'"),
        ({**APPROVAL, "kind": "vote"}, "kind: Input tag 'vote' found"),
        ({"key": "k", "data": {}}, "kind: Unable to extract tag"),
        ({**APPROVAL, "timeoutMs": "5"}, "timeoutMs: Input should be a valid integer"),
        ([], "(root): Input should be a valid dictionary"),
    ],
    ids=["bad action", "unknown kind", "no kind", "string timeout", "not an object"],
)  # fmt: skip
def test_error_detail_names_the_failing_path(payload: object, detail: str) -> None:
    with pytest.raises(InterruptPayloadInvalidError) as caught:
        parse_interrupt_payload(payload)
    assert caught.value.detail.startswith(detail)
    assert caught.value.code == "InterruptPayloadInvalid"


def test_payload_to_json_gives_back_the_callers_members_only() -> None:
    # Given a payload relying on defaults (requiredApprovals, rejectionPolicy)
    model = parse_interrupt_payload({**APPROVAL, "metadata": {"x": [1, None]}})
    # When dumped / Then defaults are not invented and names are camelCase
    assert isinstance(model, ApprovalPayload)
    assert model.data.required_approvals == 1
    assert payload_to_json(model) == {**APPROVAL, "metadata": {"x": [1, None]}}


def test_snapshot_status_and_legacy_prefix_cover_every_kind() -> None:
    assert set(SNAPSHOT_STATUS_BY_KIND) == set(INTERRUPT_KINDS) == set(LEGACY_EVENT_PREFIX_BY_KIND)
    assert snapshot_status_for("approval") == "waiting-approval"
    assert snapshot_status_for("low-confidence") == "waiting-approval"
    assert snapshot_status_for("external-event") == "waiting-external"
    for kind in ("clarification", "custom", "conversation.start", "conversation.exchange",
                 "conversation.close"):  # fmt: skip
        assert snapshot_status_for(kind) == "waiting-input"
    assert {k: v for k, v in LEGACY_EVENT_PREFIX_BY_KIND.items() if v} == {
        "approval": "approval", "clarification": "clarification"
    }  # fmt: skip
    with pytest.raises(ValueError, match="unknown interrupt kind"):
        snapshot_status_for("vote")


def test_schema_loader_lists_the_same_kinds_and_refuses_paths() -> None:
    schema = load_schema("suspend-request")
    assert schema["properties"]["kind"]["enum"] == list(INTERRUPT_KINDS)
    assert load_schema("suspend-request") is schema  # loaded once
    with pytest.raises(ValueError, match="not a schema name"):
        load_schema("../errors")
