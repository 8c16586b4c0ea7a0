"""Lambda refuses a function whose environment passes 4 KB (its keys and values, measured as JSON: the
"String measured" of its error), and CloudFormation then rolls the whole stack back. So every function's
environment is computed on the translated template with the largest value each parameter allows, and
the longest names AWS can give the resources it names, and must stay within 4 KB.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.template.intrinsics import Intrinsics
from local.template.sam_template import REPO_ROOT, load_template, translate

ENVIRONMENT_LIMIT = 4 * 1024
STACK_NAME_LENGTH = (
    45  # the longest stack name whose derived names fit Lambda's and Scheduler's 64 characters
)
NUMBER_LENGTH = 20  # a Number without MaxValue: as many digits as a float prints
PSEUDO = {
    "AWS::StackName": "s" * STACK_NAME_LENGTH,
    "AWS::Region": "ap-southeast-7",  # as long as any Region's name
    "AWS::AccountId": "1" * 12,
    "AWS::Partition": "aws-us-gov",
    "AWS::URLSuffix": "amazonaws.com.cn",
}
PARAMETERS = {"JwtIssuer": "https://issuer.example.com", "JwtAudience": "waitgate"}
SUFFIX = "X" * 13  # CloudFormation's random part of a generated name


class Unbounded(AssertionError):
    """A parameter that reaches an environment has no largest value."""


def largest_value(name: str, declaration: dict[str, Any]) -> str:
    """The longest value CloudFormation accepts for the parameter."""
    if "AllowedValues" in declaration:
        values = [str(v) for v in declaration["AllowedValues"]]
        return ",".join(values) if declaration["Type"] == "CommaDelimitedList" else max(values, key=len)
    if declaration["Type"] == "Number":
        return "9" * NUMBER_LENGTH
    if declaration["Type"] == "String" and "MaxLength" in declaration:
        return "v" * int(declaration["MaxLength"])
    return f"<unbounded {name}>"


class PhysicalIds(dict[str, Any]):
    """A Ref to any resource: the longest physical id CloudFormation would give it."""

    def __init__(self, resources: dict[str, Any], intrinsics: Intrinsics) -> None:
        super().__init__()
        self.resources, self.intrinsics = resources, intrinsics

    def __contains__(self, name: object) -> bool:
        return name in self.resources

    def __getitem__(self, name: str) -> Any:
        resource = self.resources[name]
        generated = f"{PSEUDO['AWS::StackName']}-{name}-{SUFFIX}"
        declared = resource.get("Properties", {}).get("Name")
        if resource["Type"] == "AWS::SSM::Parameter" and declared is not None:
            return self.intrinsics.resolve(declared)
        if resource["Type"] in {"AWS::SNS::Topic", "AWS::SecretsManager::Secret"}:
            return arn_of(generated)
        return generated


class Attributes(dict[tuple[str, str], Any]):
    """Any GetAtt of a resource: an ARN as long as AWS makes them."""

    def __init__(self, resources: dict[str, Any]) -> None:
        super().__init__()
        self.resources = resources

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and key[0] in self.resources

    def __getitem__(self, key: tuple[str, str]) -> Any:
        return arn_of(f"{PSEUDO['AWS::StackName']}-{key[0]}-{SUFFIX}")


def arn_of(name: str) -> str:
    """An ARN no shorter than any AWS gives (the longest service and resource-type words)."""
    partition, region, account = PSEUDO["AWS::Partition"], PSEUDO["AWS::Region"], PSEUDO["AWS::AccountId"]
    return f"arn:{partition}:secretsmanager:{region}:{account}:stateMachine:{name}"


@pytest.fixture(scope="module")
def environments() -> dict[str, dict[str, str]]:
    translated = translate(load_template(), PARAMETERS)
    declared = translated["Parameters"]
    values = {name: largest_value(name, declaration) for name, declaration in declared.items()}
    intrinsics = Intrinsics(parameters={**values, **PSEUDO}, conditions=translated.get("Conditions", {}))
    intrinsics.refs = PhysicalIds(translated["Resources"], intrinsics)
    intrinsics.attributes = Attributes(translated["Resources"])
    intrinsics.conditions = {name: True for name in intrinsics.conditions}  # every optional part deployed
    return {
        name: intrinsics.resolve(resource["Properties"].get("Environment", {}).get("Variables", {}))
        for name, resource in translated["Resources"].items()
        if resource["Type"] == "AWS::Lambda::Function"
    }


def test_every_function_has_an_environment_to_measure(environments: dict[str, dict[str, str]]) -> None:
    assert len(environments) >= 22
    assert all("TABLE_NAME" in variables for variables in environments.values())


def test_every_function_environment_fits_in_4_kb_with_the_largest_allowed_values(
    environments: dict[str, dict[str, str]],
) -> None:
    for name, variables in environments.items():
        # Then no variable takes a parameter that has no largest value (a String needs its MaxLength)
        unbounded = [key for key, value in variables.items() if "<unbounded" in str(value)]
        assert not unbounded, f"{name}: {unbounded} take a parameter without MaxLength"
        # And the whole, as Lambda measures it, fits
        measured = json.dumps({key: str(value) for key, value in variables.items()}, separators=(",", ":"))
        assert len(measured.encode("utf-8")) <= ENVIRONMENT_LIMIT, f"{name}: {len(measured)} bytes"


def test_the_escalation_defaults_are_no_function_s_environment_but_one_function_s_parameter(
    environments: dict[str, dict[str, str]],
) -> None:
    # Given the EscalationDefaults parameter (up to 4 KB by itself)
    assert not [name for name, variables in environments.items() if "ESCALATION_DEFAULTS" in variables]
    # Then only request_interrupt is told where they are kept
    told = [name for name, variables in environments.items() if "ESCALATION_DEFAULTS_PARAMETER" in variables]
    assert told == ["RequestInterruptFunction"]
    template = load_template()
    parameter = template["Resources"]["EscalationDefaultsParameter"]
    assert parameter["Properties"]["Value"] == {"Ref": "EscalationDefaults"}
    assert int(template["Parameters"]["EscalationDefaults"]["MaxLength"]) <= 4096  # a standard parameter


def handlers_importing(words: tuple[str, ...]) -> set[str]:
    """The functions whose handler's source names any of these words (what it imports)."""
    found = set()
    for name, resource in load_template()["Resources"].items():
        code = resource.get("Properties", {}).get("CodeUri", "")
        if resource["Type"] != "AWS::Serverless::Function" or not str(code).startswith("functions/"):
            continue
        source = (REPO_ROOT / code / "app.py").read_text(encoding="utf-8")
        if any(word in source for word in words):
            found.add(name)
    return found


SIGN_IN_VARIABLES = (
    "INBOX_CLIENT_ID",
    "INBOX_SCOPES",
    "INBOX_AUTHORIZATION_ENDPOINT",
    "INBOX_TOKEN_ENDPOINT",
    "INBOX_AUTHORIZE_PARAMETERS",
)


def test_only_the_functions_that_sign_in_or_name_the_issuer_are_told_the_sign_in_settings(
    environments: dict[str, dict[str, str]],
) -> None:
    # Given the handlers that build the /inbox page's sign-in, and those that serve MCP
    signing_in = handlers_importing(("inbox_sign_in",))
    serving_mcp = handlers_importing(("waitgate.mcp_server",))
    assert (signing_in, serving_mcp) == ({"InboxPageFunction"}, {"ServeMcpFunction"})
    # Then exactly those are told the sign-in (up to 1 KB: the others keep that room of their 4 KB)
    for variable in SIGN_IN_VARIABLES:
        assert {name for name, v in environments.items() if variable in v} == signing_in, variable
    # And the issuer is told to them and to serve_mcp (its protected resource metadata names it)
    assert {name for name, v in environments.items() if "OIDC_ISSUER" in v} == signing_in | serving_mcp


# The handlers that send notices (and so mint the links notifications carry): each imports what
# builds the notifications (channel_composition.notification_dependencies, directly or through the
# request, reconcile and escalation wiring).
NOTIFYING_IMPORTS = ("request_composition", "reconcile_composition", "escalation_dependencies", "fresh_link")


def test_every_function_that_notifies_and_no_other_is_told_how_long_its_links_last(
    environments: dict[str, dict[str, str]],
) -> None:
    # Given the handlers whose code sends notices
    notifying = handlers_importing(NOTIFYING_IMPORTS)
    assert {"RequestInterruptFunction", "EscalateInterruptFunction"} <= notifying
    # Then exactly those are told NotificationLinkMaxHours (the others keep their 4 KB for themselves)
    told = {name for name, variables in environments.items() if "LINK_MAX_HOURS" in variables}
    assert told == notifying
    # And only the mint function reads the minted links' default lifetime
    assert [name for name, v in environments.items() if "TOKEN_LIFETIME_SECONDS" in v] == [
        "MintTokenFunction"
    ]
