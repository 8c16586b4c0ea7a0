"""A schema inferred from a value, so a form can edit the value keeping its shape and types: the
edit-accept editor of an artifact, an agent's decision to change. Objects of scalars become fields,
lists of plain strings or of integers one per line, anything else a JSON editor. Pure."""

from __future__ import annotations

from typing import Any

from waitgate.page.schema_fields import MAX_DEPTH


def schema_of_value(value: Any, depth: int = 0) -> dict[str, Any]:
    """A schema a form can edit `value` under, keeping its shape and types (the edit-accept editor,
    a decision to change): objects of scalars become fields, anything else a JSON editor."""
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        return {"type": "string"}
    if isinstance(value, list) and value and depth < MAX_DEPTH:
        if all(
            isinstance(item, str) and item and "\n" not in item and item.strip() == item for item in value
        ):
            return {"type": "array", "items": {"type": "string"}}
        if all(isinstance(item, int) and not isinstance(item, bool) for item in value):
            return {"type": "array", "items": {"type": "integer"}}
    if isinstance(value, dict) and value and depth < MAX_DEPTH:
        properties = {key: schema_of_value(item, depth + 1) for key, item in value.items()}
        return {"type": "object", "properties": properties, "required": list(value)}
    return {}
