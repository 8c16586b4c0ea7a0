"""Test doubles of agentflow's interrupt classes, exactly as agentflow's documentation shows them
(summarised in docs/agentflow-interrupts.md; agentflow is not installable here)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class QualityGateReview:
    """Ask a human to accept or reject an artifact a gate could not clear."""

    artifact: Any
    criteria: list[str] = field(default_factory=list)
    auto_score: float | None = None
    reasons: list[str] = field(default_factory=list)
    gate: str | None = None

    def to_payload(self) -> dict[str, Any]:
        """Render to a plain dict with a ``type`` discriminator for interrupt()."""
        return {"type": "quality_gate", **asdict(self)}


@dataclass(frozen=True)
class ClarificationRequest:
    """Ask a human a question mid-run when the agent is genuinely uncertain."""

    question: str
    options: list[str] = field(default_factory=list)
    context: dict[str, Any] = field(default_factory=dict)

    def to_payload(self) -> dict[str, Any]:
        """Render to a plain dict with a ``type`` discriminator for interrupt()."""
        return {"type": "clarification", **asdict(self)}


def interrupt_type(payload: Any) -> str | None:
    """agentflow's own reader, to check ours agrees with it on agentflow's payloads."""
    if isinstance(payload, dict):
        t = payload.get("type")
        return t if isinstance(t, str) else None
    if hasattr(payload, "tool") and hasattr(payload, "options"):
        return "permission"
    return None


@dataclass(frozen=True)
class PermissionRequest:
    """The shape agentflow's Interactive policy raises, as far as the reference tells: it has
    `tool` and `options` (duck-typed); `arguments` stands for the rest of a tool call."""

    tool: str
    options: list[str]
    arguments: dict[str, Any] = field(default_factory=dict)
