"""Check stored run events against schemas/v2/run-event-payloads.schema.json."""

from __future__ import annotations

import json
from typing import Any

from waitgate.payloads.run_events import event_types, payload_problems


def problems_of(events: list[dict[str, Any]]) -> list[str]:
    """Why any of these events ({seq, type, payload}) is not valid; empty when all are."""
    found: list[str] = []
    for event in events:
        if event["type"] not in event_types():
            found.append(f"seq {event['seq']}: type {event['type']!r} is not registered in the schema")
            continue
        found += [
            f"seq {event['seq']} {event['type']} {p}"
            for p in payload_problems(event["type"], event["payload"])
        ]
    return found


def stored_events(dynamodb: Any, table_name: str) -> list[dict[str, Any]]:
    """Every event item in the table (a Scan: fine for a test table)."""
    found: list[dict[str, Any]] = []
    arguments: dict[str, Any] = {"TableName": table_name}
    while True:
        answer = dynamodb.scan(**arguments)
        for item in answer["Items"]:
            if item["sk"]["S"].startswith("EVT#"):
                found.append(
                    {
                        "seq": int(item["seq"]["N"]),
                        "type": item["type"]["S"],
                        "payload": json.loads(item["payload"]["S"]),
                    }
                )
        if "LastEvaluatedKey" not in answer:
            return found
        arguments["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
