"""schemas/v2/run-event-payloads.schema.json: one shape per direction, legacy types as $ref aliases."""

from __future__ import annotations

import pytest

from waitgate.payloads.run_events import RUN_EVENT_PAYLOADS, event_types, payload_problems
from waitgate.schemas import load_schema

REQUESTED = {"kind": "custom", "key": "k", "data": {"customKind": "acme.label"}}
RESOLVED = {"nodeId": "Interrupt", "interruptId": "01J", "kind": "custom", "resumeValue": {"ok": True}}


def test_legacy_definitions_are_aliases_of_the_interrupt_ones() -> None:
    definitions = load_schema(RUN_EVENT_PAYLOADS)["$defs"]
    for legacy in ("approval", "clarification"):
        assert definitions[f"{legacy}Requested"]["$ref"] == "#/$defs/interruptRequested"
        assert definitions[f"{legacy}Resolved"]["$ref"] == "#/$defs/interruptResolved"
    assert definitions["interruptRequested"]["$ref"] == "suspend-request.schema.json"


@pytest.mark.parametrize(
    "event_type", ["interrupt.requested", "approval.requested", "clarification.requested"]
)
def test_requested_is_the_interrupt_payload(event_type: str) -> None:
    assert payload_problems(event_type, REQUESTED) == []
    assert payload_problems(event_type, {**REQUESTED, "data": {}}) != []


@pytest.mark.parametrize("event_type", ["interrupt.resolved", "approval.resolved", "clarification.resolved"])
def test_resolved_is_closed(event_type: str) -> None:
    assert payload_problems(event_type, RESOLVED) == []
    assert payload_problems(event_type, {"nodeId": "n", "interruptId": "i"}) == []
    assert payload_problems(event_type, {**RESOLVED, "decidedBy": "alice"}) != []
    assert payload_problems(event_type, {**RESOLVED, "kind": "unknown"}) != []


def test_agent_decided_and_node_suspended() -> None:
    assert payload_problems("agent.decided", {"agentId": "a", "confidence": 0.4, "label": "x"}) == []
    assert payload_problems("agent.decided", {"agentId": "a", "confidence": 1.4}) != []
    suspended = {"reason": "low-confidence", "threshold": 0.7, "observed": 0.4}
    assert payload_problems("node.suspended", suspended) == []
    assert payload_problems("node.suspended", {"threshold": 0.7}) != []


def test_every_type_the_service_writes_is_registered() -> None:
    written = {
        "interrupt.requested",
        "interrupt.resolved",
        "approval.requested",
        "approval.resolved",
        "clarification.requested",
        "clarification.resolved",
        "node.suspended",
        "agent.decided",
        "interrupt.voted",
        "interrupt.asked",
        "interrupt.expired",
        "interrupt.cancelled",
        "interrupt.replayed",
        "interrupt.delivered",
        "interrupt.delivery_failed",
        "run.status_changed",
    }
    assert written <= set(event_types())
