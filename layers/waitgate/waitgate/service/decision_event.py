"""The event recordDecision's workflow step hands it, as the models that check it.

A module of their own so that the function's import does not build them: pydantic and these models load
with the first decision recordDecision checks (docs/performance.md, "Cold start as deployed")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class AgentDecision(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True, strict=True)

    agent_id: str = Field(alias="agentId", min_length=1)
    confidence: float = Field(ge=0, le=1)


class DecisionTaskEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    run_id: str = Field(alias="runId", min_length=1)
    node_id: str = Field(alias="nodeId", min_length=1)
    tenant_id: str | None = Field(default=None, alias="tenantId")
    decision: AgentDecision
    key: str | None = Field(default=None, min_length=1, max_length=200)
    configurable: dict[str, Any] | None = None
    execution_arn: str | None = Field(default=None, alias="executionArn")
