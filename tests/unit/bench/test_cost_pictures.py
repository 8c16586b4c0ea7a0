"""The pictures of docs/performance.md's "What it costs" are the bench's figures: each engine's SVG is
what bench/cost_chart.py draws from docs/pictures/cost.json, and the document shows each of them; the
cost model's pieces (a secondary index's writes, a durable execution's history) as DynamoDB and Lambda
bill them."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from bench import cost_chart
from bench.cost_durable import history_figures
from bench.dynamodb_capacity import INDEXES, index_write_units

DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "performance.md"


def test_each_engines_picture_is_drawn_from_the_figures_beside_it() -> None:
    figures = json.loads(cost_chart.FIGURES.read_text(encoding="utf-8"))
    drawn = cost_chart.pictures(figures)
    assert set(drawn) == {"cost-step-functions.svg", "cost-durable-function.svg"}
    for name, svg in drawn.items():
        assert (cost_chart.PICTURES / name).read_text(encoding="utf-8") == svg, (
            f"docs/pictures/{name} is not what the figures draw: run `python -m bench.cost_chart`"
        )
        ElementTree.fromstring(svg)  # well-formed


def test_the_document_shows_both_pictures() -> None:
    text = DOCUMENT.read_text(encoding="utf-8")
    shown = set(re.findall(r"!\[[^\]]+\]\(pictures/(cost-[^)]+\.svg)\)", text))
    assert shown == {"cost-step-functions.svg", "cost-durable-function.svg"}


def test_a_bar_is_as_long_as_its_parts_and_the_target_mark_sits_at_the_goal() -> None:
    parts = {"Lambda requests": 0.01, "DynamoDB writes (WRU)": 0.03}
    channels = {"SES e-mail": {"waitgate": parts, "AWS sample": {"Lambda requests": 0.08}}}
    svg = ElementTree.fromstring(cost_chart.picture("durable function", channels, 0.5, "2026-12-01"))
    bars = [r for r in svg.iter("{http://www.w3.org/2000/svg}rect") if r.find("*") is not None]  # titled
    widths = [float(r.get("width", 0)) for r in bars]
    scale = (cost_chart.WIDTH - cost_chart.LEFT - cost_chart.RIGHT) / 0.08
    assert widths == pytest.approx([0.01 * scale, 0.03 * scale, 0.08 * scale], abs=0.05)
    (mark,) = svg.iter("{http://www.w3.org/2000/svg}line")
    assert float(mark.get("x1", 0)) == pytest.approx(cost_chart.LEFT + 0.04 * scale, abs=0.05)


def _node(**attributes: str) -> dict[str, dict[str, str]]:
    values = {name: {"S": value} for name, value in attributes.items()}
    return {"pk": {"S": "RUN#t#r"}, "sk": {"S": "NODE#Interrupt"}, **values}


def test_an_index_is_billed_only_for_what_changes_in_it() -> None:
    (inbox_keys, _), (outstanding_keys, _) = INDEXES
    pending = _node(**dict.fromkeys(inbox_keys, "x"), status="pending")
    assert index_write_units(None, pending) == 1  # enters the inbox index
    assert index_write_units(pending, {**pending, "notes": {"S": "not projected"}}) == 0
    assert index_write_units(pending, {**pending, "status": {"S": "resolved"}}) == 1  # projected
    assert index_write_units(pending, _node()) == 1  # leaves it
    due = _node(**dict.fromkeys(outstanding_keys, "a"))
    assert index_write_units(due, {**due, outstanding_keys[1]: {"S": "b"}}) == 2  # out, then in


def _with(event: str, part: str, payload: str) -> dict[str, dict[str, dict[str, str]]]:
    return {f"{event}Details": {part: {"Payload": payload}}}


def test_a_durable_history_gives_invocations_operations_and_checkpointed_bytes() -> None:
    events = [
        {"EventType": "ExecutionStarted", "Id": "e", **_with("ExecutionStarted", "Input", "{}" * 50)},
        {"EventType": "ContextStarted", "Id": "c", "ContextStartedDetails": {}},
        {"EventType": "CallbackStarted", "Id": "cb", "ParentId": "c"},
        {"EventType": "StepStarted", "Id": "s", "ParentId": "c"},
        {"EventType": "StepSucceeded", "Id": "s", **_with("StepSucceeded", "Result", "null")},
        {"EventType": "InvocationCompleted"},
        {"EventType": "CallbackSucceeded", "Id": "cb", **_with("CallbackSucceeded", "Result", "{}")},
        {
            "EventType": "InvocationCompleted",
            "InvocationCompletedDetails": {
                "StartTimestamp": "2026-12-01T10:00:00+00:00",
                "EndTimestamp": "2026-12-01T10:00:00.250000+00:00",
                "RequestId": "r",
            },
        },
        {"EventType": "ExecutionSucceeded", "Id": "e", **_with("ExecutionSucceeded", "Result", "{}")},
    ]
    assert history_figures(events) == (2, [250.0], 4, 100 + 4 + 2 + 2)
