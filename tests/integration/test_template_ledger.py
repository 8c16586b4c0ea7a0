"""template.yaml's decision ledger (docs/ledger.md): an asymmetric signing key, used to Sign by the
stream reader alone, which is handed exactly the run events the ledger records."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.template.event_patterns import matches
from local.template.sam_template import load_template
from waitgate.ledger.entries import DIRECTORY_PREFIXES, LEDGERED_TYPES
from waitgate.subscriptions.targets import EVENT_TYPES


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def test_the_ledger_key_is_an_asymmetric_signing_key_kept_with_its_heads(template: dict[str, Any]) -> None:
    key = template["Resources"]["LedgerKey"]
    assert (key["Properties"]["KeySpec"], key["Properties"]["KeyUsage"]) == ("ECC_NIST_P256", "SIGN_VERIFY")
    assert (key["DeletionPolicy"], key["UpdateReplacePolicy"]) == ("Retain", "Retain")
    assert template["Outputs"]["LedgerKeyId"]["Value"] == {"Ref": "LedgerKey"}


def test_only_the_stream_reader_signs_and_it_signs_with_the_ledger_key(template: dict[str, Any]) -> None:
    signers = {}
    for name, resource in template["Resources"].items():
        text = json.dumps(resource.get("Properties", {}))
        if "kms:Sign" in text:
            signers[name] = resource
    assert list(signers) == ["StreamDispatchFunction"]
    statements = [
        statement
        for policy in signers["StreamDispatchFunction"]["Properties"]["Policies"]
        if isinstance(policy, dict) and "Statement" in policy
        for statement in policy["Statement"]
        if statement.get("Action") == "kms:Sign"
    ]
    assert statements == [
        {"Effect": "Allow", "Action": "kms:Sign", "Resource": {"Fn::GetAtt": ["LedgerKey", "Arn"]}}
    ]
    environment = signers["StreamDispatchFunction"]["Properties"]["Environment"]["Variables"]
    assert environment["LEDGER_KEY_ID"] == {"Ref": "LedgerKey"}


def _filters(template: dict[str, Any]) -> list[dict[str, Any]]:
    event = template["Resources"]["StreamDispatchFunction"]["Properties"]["Events"]["Changes"]["Properties"]
    return [json.loads(f["Pattern"]) for f in event["FilterCriteria"]["Filters"]]


def _inserted(sk: str, event_type: str, name: str = "INSERT") -> dict[str, Any]:
    return {
        "eventName": name,
        "dynamodb": {"Keys": {"sk": {"S": sk}}, "NewImage": {"type": {"S": event_type}, "sk": {"S": sk}}},
    }


def test_the_stream_reader_is_handed_every_event_the_ledger_records_and_no_other(
    template: dict[str, Any],
) -> None:
    filters = _filters(template)

    def handed(record: dict[str, Any]) -> bool:
        return any(matches(pattern, record) for pattern in filters)

    assert all(handed(_inserted("EVT#000000000001", kind)) for kind in LEDGERED_TYPES)
    assert all(handed(_inserted("EVT#000000000001", prefix + "x")) for prefix in DIRECTORY_PREFIXES)
    assert not handed(_inserted("EVT#000000000001", "notification.sent"))
    assert not handed(_inserted("EVT#000000000001", "approval.resolved"))
    assert not handed(_inserted("EVT#000000000001", "interrupt.resolved", name="MODIFY"))
    assert not handed(_inserted("LEDGER#x", "interrupt.resolved"))


def test_one_pattern_hands_the_ledger_and_the_webhooks_out_every_inserted_event_they_read(
    template: dict[str, Any],
) -> None:
    # Given the stream reader's patterns for inserted run events (EVT# items)
    inserted = [p for p in _filters(template) if p["dynamodb"]["Keys"]["sk"]["S"] == [{"prefix": "EVT#"}]]
    # Then there is one, and it hands every lifecycle event the webhooks out send, as an INSERT only
    assert len(inserted) == 1
    assert all(matches(inserted[0], _inserted("EVT#000000000007", kind)) for kind in EVENT_TYPES)
    assert not any(matches(inserted[0], _inserted("EVT#000000000007", k, name="MODIFY")) for k in EVENT_TYPES)
