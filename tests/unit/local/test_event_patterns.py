"""Lambda's event filtering for the local stream dispatch: the stream reader's patterns, evaluated."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.template.event_patterns import UnsupportedPatternError, check_pattern, matches
from local.template.sam_template import load_template


def reader_patterns() -> list[dict[str, Any]]:
    """The filters of the table stream's one reader: the outbox's, then the decisions'."""
    mapping = load_template()["Resources"]["StreamDispatchFunction"]["Properties"]["Events"]
    (stream,) = [event for event in mapping.values() if event["Type"] == "DynamoDB"]
    return [json.loads(f["Pattern"]) for f in stream["Properties"]["FilterCriteria"]["Filters"]]


def outbox_pattern() -> dict[str, Any]:
    return reader_patterns()[0]


def record(sk: str, image: dict[str, str] | None, old: dict[str, str] | None = None) -> dict[str, Any]:
    dynamodb: dict[str, Any] = {"Keys": {"pk": {"S": "RUN#default#r"}, "sk": {"S": sk}}}
    if image is not None:
        dynamodb["NewImage"] = {name: {"S": value} for name, value in image.items()}
    if old is not None:
        dynamodb["OldImage"] = {name: {"S": value} for name, value in old.items()}
    return {"eventName": "MODIFY", "dynamodb": dynamodb}


DELIVERED = {"status": "resolved", "deliveredAt": "2026-11-30T10:00:00Z"}


@pytest.mark.parametrize(
    ("event", "wanted"),
    [
        (record("NODE#Interrupt", {"status": "resolved"}, {"status": "pending"}), True),
        (record("NODE#Interrupt", {"status": "cancelled"}, {"status": "pending"}), True),
        (record("NODE#Interrupt", DELIVERED, {"status": "resolved"}), False),
        (record("NODE#Interrupt", {"status": "pending"}, None), False),
        (record("STREAM#1100000000017454423016", {"done": "outbox"}), False),
    ],
    ids=["decided", "cancelled", "the delivery mark", "requested", "the reader's own progress"],
)
def test_the_reader_gets_endings_and_decisions_only(event: dict[str, Any], wanted: bool) -> None:
    patterns = reader_patterns()
    assert len(patterns) <= 5  # Lambda's filters per event source mapping
    assert any(matches(pattern, event) for pattern in patterns) is wanted


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
