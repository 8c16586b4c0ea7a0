"""What the benchmarks ask and answer: one approval payload and one accepting resume value."""

from __future__ import annotations

from typing import Any

APPROVAL: dict[str, Any] = {
    "kind": "approval",
    "key": "release",
    "data": {
        "artifactId": "r1",
        "artifactType": "release",
        "title": "Ship?",
        "actions": ["accept", "reject"],
    },
}
ACCEPT: dict[str, Any] = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
