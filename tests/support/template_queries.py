"""Questions the template tests ask of template.yaml (as load_template gives it)."""

from __future__ import annotations

from typing import Any


def own_state_machine_arns(template: dict[str, Any]) -> set[str]:
    """Each state machine of the template by its exact ARN, as a `Fn::Sub` text."""
    prefix = "arn:${AWS::Partition}:states:${AWS::Region}:${AWS::AccountId}:stateMachine:"
    machines = [r for r in template["Resources"].values() if r["Type"] == "AWS::Serverless::StateMachine"]
    return {prefix + machine["Properties"]["Name"]["Fn::Sub"] for machine in machines}


def subs_in(value: Any) -> set[str]:
    """Every `Fn::Sub` text inside `value`."""
    if isinstance(value, list):
        return set().union(*(subs_in(item) for item in value)) if value else set()
    if not isinstance(value, dict):
        return set()
    found = {value["Fn::Sub"]} if isinstance(value.get("Fn::Sub"), str) else set()
    return found.union(*(subs_in(item) for item in value.values()))
