"""The interrupts the page's browser tests and its pictures are made of."""

from __future__ import annotations

from typing import Any

TITLE = 'Ship release <4.2> to "production"?'
ARTIFACT = {
    "version": "4.2.0",
    "changes": 37,
    "notes": "Two migrations.\nRoll back with 4.1.9.",
    "items": [{"id": "c-101", "title": "Faster login"}, {"id": "c-102", "title": "New billing API"}],
}


def approval(**data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "release",
        "timeoutMs": 3 * 3600 * 1000,
        "data": {
            "artifactId": "release-4.2",
            "artifactType": "release",
            "title": TITLE,
            "description": "37 changes, 2 migrations.",
            "artifact": ARTIFACT,
            "criteria": ["All checks green", "Migrations can be rolled back"],
            "reasons": ["The migration touches the users table"],
            "autoScore": 0.62,
            "actions": ["accept", "reject", "refine", "edit-accept", "ask"],
            **data,
        },
    }


QUESTIONS = [
    {"id": "region", "question": "Which region?", "schema": {"enum": ["eu-west-1", "us-east-1"]}},
    {
        "id": "size",
        "question": "Which instance size?",
        "schema": {"type": "string", "enum": ["nano", "micro", "small", "medium", "large", "xlarge"]},
    },
    {
        "id": "replicas",
        "question": "How many replicas?",
        "schema": {"type": "integer", "minimum": 1, "maximum": 10},
    },
    {"id": "dry", "question": "A dry run first?", "schema": {"type": "boolean"}},
    {"id": "start", "question": "From which day?", "schema": {"type": "string", "format": "date"}},
    {"id": "contact", "question": "Who is on call?", "schema": {"type": "string", "format": "email"}},
    {
        "id": "parts",
        "question": "Which parts?",
        "schema": {"type": "array", "items": {"enum": ["api", "web", "jobs"]}, "minItems": 1},
    },
    {"id": "notes", "question": "Anything else?"},
]
