"""Run event payloads against `schemas/v2/run-event-payloads.schema.json` (which refers to the
InterruptPayload and escalation policy schemas): one definition per stored event type, listed in its
`x-eventTypes`."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from waitgate.schemas import load_schema, suspend_request_schema

RUN_EVENT_PAYLOADS = "run-event-payloads"
ESCALATION_POLICY = "escalation-policy"  # interrupt.escalated names the approvers as the policy does


def event_types() -> Mapping[str, str]:
    """Every event type waitgate stores → the name of its payload definition."""
    types: Mapping[str, str] = load_schema(RUN_EVENT_PAYLOADS)["x-eventTypes"]
    return types


@lru_cache(maxsize=32)
def payload_validator(event_type: str) -> Draft202012Validator:
    """The validator of one event type's payload; KeyError for a type the schema does not register."""
    schema = load_schema(RUN_EVENT_PAYLOADS)
    definition = event_types()[event_type]
    documents = (schema, suspend_request_schema(), load_schema(ESCALATION_POLICY))
    registry: Registry[Any] = Registry().with_resources(
        (document["$id"], Resource.from_contents(document)) for document in documents
    )
    return Draft202012Validator({"$ref": f"{schema['$id']}#/$defs/{definition}"}, registry=registry)


def payload_problems(event_type: str, payload: Any) -> list[str]:
    """Why `payload` is not a valid payload of `event_type` (empty: it is)."""
    return [
        f"{error.json_path}: {error.message}" for error in payload_validator(event_type).iter_errors(payload)
    ]
