"""DeploySamples: with "false" the stack holds no sample — no sample state machine, no durable function
(a region without Lambda durable functions can deploy it) — and nothing left names what went away."""

from __future__ import annotations

import re
from typing import Any

import pytest

from local.template.intrinsics import Intrinsics, parameter_values, pseudo_parameters
from local.template.sam_template import load_template, translate

PARAMETERS = {"JwtIssuer": "https://issuer.example.com", "JwtAudience": "waitgate"}
SAMPLES = {
    "ApprovalSampleFunction",
    "ReentryStateMachine",
    "ClarificationStateMachine",
    "ExternalEventStateMachine",
    "CustomStateMachine",
    "ConversationStateMachine",
    "LowConfidenceStateMachine",
}
PSEUDO = set(pseudo_parameters("s", "us-east-1", "123456789012")) | {"AWS::NoValue"}


def deployed(deploy_samples: str) -> tuple[dict[str, Any], dict[str, Any], Intrinsics]:
    """The translated template's resources and outputs CloudFormation would create, given the value."""
    parameters = {**PARAMETERS, "DeploySamples": deploy_samples}
    translated = translate(load_template(), parameters)
    values = parameter_values(translated["Parameters"], parameters)
    intrinsics = Intrinsics(parameters=values, conditions=translated.get("Conditions", {}))

    def kept(section: dict[str, Any]) -> dict[str, Any]:
        return {
            n: r for n, r in section.items() if "Condition" not in r or intrinsics.condition(r["Condition"])
        }

    return kept(translated["Resources"]), kept(translated.get("Outputs", {})), intrinsics


def names_used(value: Any, intrinsics: Intrinsics) -> set[str]:
    """Every name a Ref, GetAtt or Sub uses, following only the Fn::If branch its condition takes."""
    if isinstance(value, list):
        return set().union(*(names_used(item, intrinsics) for item in value)) if value else set()
    if not isinstance(value, dict):
        return set()
    if len(value) == 1:
        ((key, argument),) = value.items()
        if key == "Fn::If":
            name, when_true, when_false = argument
            return names_used(when_true if intrinsics.condition(name) else when_false, intrinsics)
        if key == "Ref":
            return {argument}
        if key == "Fn::GetAtt":
            return {argument[0] if isinstance(argument, list) else argument.split(".", 1)[0]}
        if key == "Fn::Sub":
            text, variables = (argument, {}) if isinstance(argument, str) else argument
            found = {m.split(".", 1)[0] for m in re.findall(r"\$\{([^}!][^}]*)\}", text)} - set(variables)
            return found | names_used(variables, intrinsics)
    return set().union(*(names_used(item, intrinsics) for item in value.values())) if value else set()


def test_by_default_the_samples_are_deployed() -> None:
    assert load_template()["Parameters"]["DeploySamples"]["Default"] == "true"
    resources, outputs, _ = deployed("true")
    assert set(resources) >= SAMPLES
    assert "ApprovalSampleFunctionAlias" in outputs


@pytest.mark.parametrize("deploy_samples", ["true", "false"])
def test_everything_deployed_names_only_what_is_deployed(deploy_samples: str) -> None:
    resources, outputs, intrinsics = deployed(deploy_samples)
    known = set(resources) | set(intrinsics.parameters) | PSEUDO
    for name, item in {**resources, **outputs}.items():
        missing = names_used({k: v for k, v in item.items() if k != "Condition"}, intrinsics) - known
        assert not missing, f"{name} names {sorted(missing)}, which DeploySamples={deploy_samples} leaves out"


def test_without_the_samples_no_sample_remains_and_no_durable_function() -> None:
    resources, outputs, intrinsics = deployed("false")
    # Then no sample, nor anything SAM made for one (roles, versions, aliases), nor its alarm
    leftovers = [n for n in resources if any(n.startswith(sample) for sample in SAMPLES)]
    assert leftovers == []
    assert "SampleFunctionErrorsAlarm" not in resources and "ApprovalSampleFunctionAlias" not in outputs
    # And the one state machine is the generic workflow; no function needs Lambda durable functions
    machines = [n for n, r in resources.items() if r["Type"] == "AWS::StepFunctions::StateMachine"]
    assert machines == ["InterruptStateMachine"]
    assert not [n for n, r in resources.items() if "DurableConfig" in r.get("Properties", {})]
    # And the dashboard lists every alarm that remains, and only those
    text, variables = resources["OperationsDashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]
    listed = set(re.findall(r"\$\{(\w+)\.Arn\}", text)) | names_used(variables, intrinsics)
    assert listed == {n for n, r in resources.items() if r["Type"] == "AWS::CloudWatch::Alarm"}
