"""Lambda's event filtering for the local stream dispatch: the template's outbox pattern, evaluated."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.template.event_patterns import UnsupportedPatternError, check_pattern, matches
from local.template.sam_template import load_template


def outbox_pattern() -> dict[str, Any]:
    mapping = load_template()["Resources"]["DeliverResolutionFunction"]["Properties"]["Events"]
    (stream,) = [event for event in mapping.values() if event["Type"] == "DynamoDB"]
    (only,) = stream["Properties"]["FilterCriteria"]["Filters"]
    pattern: dict[str, Any] = json.loads(only["Pattern"])
    return pattern


def record(sk: str, image: dict[str, str] | None) -> dict[str, Any]:
    dynamodb: dict[str, Any] = {"Keys": {"pk": {"S": "RUN#default#r"}, "sk": {"S": sk}}}
    if image is not None:
        dynamodb["NewImage"] = {name: {"S": value} for name, value in image.items()}
    return {"eventName": "MODIFY", "dynamodb": dynamodb}


@pytest.mark.parametrize(
    ("event", "wanted"),
    [
        (record("NODE#Interrupt", {"status": "resolved"}), True),
        (record("NODE#Interrupt", {"status": "expired"}), True),
        (record("NODE#Interrupt", {"status": "resolved", "deliveredAt": "2026-11-30T10:00:00Z"}), False),
        (record("NODE#Interrupt", {"status": "pending"}), False),
        (record("RUN", {"status": "resolved"}), False),
        (record("NODE#Interrupt", None), False),
    ],
    ids=["resolved", "expired", "delivered already", "pending", "not a node", "removed"],
)
def test_the_outbox_gets_only_undelivered_endings(event: dict[str, Any], wanted: bool) -> None:
    pattern = outbox_pattern()
    check_pattern(pattern)
    assert matches(pattern, event) is wanted


@pytest.mark.parametrize(
    "pattern",
    [{"a": [{"anything-but": "x"}]}, {"a": [{"numeric": [">", 1]}]}, {"a": "x"}],
    ids=["anything-but", "numeric", "not a list"],
)
def test_an_operator_it_does_not_evaluate_is_refused(pattern: dict[str, Any]) -> None:
    with pytest.raises(UnsupportedPatternError):
        check_pattern(pattern)
