"""template.yaml on moto as the local stack makes it: translated with the local parameters (the local
issuer, the public URL, the samples deployed) and every supported resource created."""

from __future__ import annotations

from typing import Any

from local.aws_clients import AwsClients
from local.patches.lambda_runtime import FunctionRegistry
from local.standins.jwt_issuer import LOCAL_AUDIENCE
from local.standins.moto_server import LOCAL_ACCOUNT_ID, LOCAL_REGION
from local.template.compute_resources import COMPUTE_CREATORS
from local.template.data_resources import DATA_CREATORS
from local.template.event_resources import EVENT_CREATORS
from local.template.intrinsics import Intrinsics, parameter_values, pseudo_parameters
from local.template.resources import Creator, StackContext, create_all
from local.template.sam_template import load_template
from local.template.translation_cache import translate_cached

STACK_NAME = "waitgate-local"
OVERRIDE_PRINCIPALS = ["oncall-lead"]


def create_template_resources(
    api_url: str,
    jwt_issuer: str,
    registry: FunctionRegistry,
    restoring: dict[str, Creator] | None = None,
    parameters: dict[str, str] | None = None,
) -> tuple[dict[str, Any], dict[str, Any], StackContext]:
    """template.yaml translated and every supported resource created (at AWS_ENDPOINT_URL); the
    `restoring` creators stand in for the plain ones of their types; `parameters` set more of the
    template's parameters."""
    overrides = {
        "JwtIssuer": jwt_issuer,
        "JwtAudience": LOCAL_AUDIENCE,
        "PublicBaseUrl": api_url,
        "OverridePrincipals": ",".join(OVERRIDE_PRINCIPALS),
        "InboxClientId": LOCAL_AUDIENCE,  # its endpoints come from the local issuer's discovery document
        "DeploySamples": "true",  # the e2e tests, the docs' examples and the benches run the samples
        **(parameters or {}),
    }
    pseudo = pseudo_parameters(STACK_NAME, LOCAL_REGION, LOCAL_ACCOUNT_ID)
    sam_template = load_template()
    translated = translate_cached(sam_template, {**overrides, **pseudo})  # as translate, kept in .cache/
    intrinsics = Intrinsics(
        parameters={**parameter_values(translated.get("Parameters", {}), overrides), **pseudo},
        conditions=translated.get("Conditions", {}),
    )
    context = StackContext(
        AwsClients(LOCAL_REGION), STACK_NAME, LOCAL_REGION, LOCAL_ACCOUNT_ID, registry, intrinsics
    )
    creators = {**DATA_CREATORS, **COMPUTE_CREATORS, **EVENT_CREATORS, **(restoring or {})}
    create_all(context, translated["Resources"], creators)
    return sam_template, translated, context
