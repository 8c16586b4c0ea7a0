"""Read template.yaml as CloudFormation sees it and translate it the way `sam deploy` would.

The local stack and the template tests both start here, so neither keeps its own list of resources.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_PATH = REPO_ROOT / "template.yaml"


# libyaml's loader (PyYAML's wheels ship it) parses template.yaml about three times faster than the
# pure-Python one; both build the same document.
_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _CloudFormationLoader(_SafeLoader):  # type: ignore[misc]  # one of two classes, known at import
    """A YAML loader that turns CloudFormation short tags (!Ref, !Sub, ...) into their long form."""


def _construct_intrinsic(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    tag = node.tag[1:]
    name = "Ref" if tag == "Ref" else f"Fn::{tag}"
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]
    if tag == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {name: value}


_CloudFormationLoader.add_multi_constructor("!", _construct_intrinsic)


def load_template(path: Path = TEMPLATE_PATH) -> dict[str, Any]:
    """template.yaml as a plain dict, intrinsic functions in their long form: each caller gets a copy
    of its own to change, of one parse per version of the file (its modification time and size)."""
    return copy.deepcopy(_shared_parse(path))


def _shared_parse(path: Path = TEMPLATE_PATH) -> dict[str, Any]:
    """The one parse itself, which its callers only read (a deep copy of the whole template costs
    more than reading one table's properties from it)."""
    status = path.stat()
    return _parsed(path, status.st_mtime_ns, status.st_size)


@functools.cache
def _parsed(path: Path, _mtime_ns: int, _size: int) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = yaml.load(handle, Loader=_CloudFormationLoader)  # noqa: S506
    return loaded


def table_properties(logical_id: str, parameters: dict[str, Any] | None = None) -> dict[str, Any]:
    """A table's properties as CloudFormation creates it, for these parameter values (else the
    defaults; a parameter without one, which no table's properties use, as ""): its conditional parts
    (a GSI kept by a parameter) resolved."""
    from local.template.intrinsics import Intrinsics, parameter_values, pseudo_parameters

    template = _shared_parse()  # read, never changed: `resolve` builds the containers it returns
    pseudo = pseudo_parameters("waitgate", "us-east-1", "123456789012")
    required = {name: "" for name, declared in template["Parameters"].items() if "Default" not in declared}
    values = {**parameter_values(template["Parameters"], {**required, **(parameters or {})}), **pseudo}
    intrinsics = Intrinsics(parameters=values, conditions=template.get("Conditions", {}))
    resolved: dict[str, Any] = intrinsics.resolve(template["Resources"][logical_id]["Properties"])
    return resolved


def load_state_machine_definition(relative_path: str) -> dict[str, Any]:
    """One ASL file named by a DefinitionUri."""
    definition: dict[str, Any] = json.loads((REPO_ROOT / relative_path).read_text(encoding="utf-8"))
    return definition


LOCAL_CODE_BUCKET = "waitgate-local-code"
_CODE_PROPERTIES = {"AWS::Serverless::Function": "CodeUri", "AWS::Serverless::LayerVersion": "ContentUri"}


def local_code_path(s3_uri: str) -> Path:
    """The folder a packaged code URI stands for (see `package_locally`)."""
    return REPO_ROOT / s3_uri.removeprefix(f"s3://{LOCAL_CODE_BUCKET}/")


def package_locally(template: dict[str, Any]) -> dict[str, Any]:
    """What `sam package` does, without uploading: ASL files inlined, code folders named as S3 URIs."""
    inlined = copy.deepcopy(template)
    for resource in inlined.get("Resources", {}).values():
        properties = resource.get("Properties", {})
        code_property = _CODE_PROPERTIES.get(resource.get("Type", ""))
        if code_property and isinstance(properties.get(code_property), str):
            folder = properties[code_property].rstrip("/")
            properties[code_property] = f"s3://{LOCAL_CODE_BUCKET}/{folder}"
        if resource.get("Type") == "AWS::Serverless::StateMachine" and isinstance(
            properties.get("DefinitionUri"), str
        ):
            properties["Definition"] = load_state_machine_definition(properties.pop("DefinitionUri"))
    return inlined


class _NoManagedPolicies:
    """samtranslator asks for AWS managed policy ARNs only when a template names one by its name."""

    def load(self) -> dict[str, str]:
        return {}


def translate(template: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
    """The CloudFormation template that SAM's transform makes of ours (needs AWS_DEFAULT_REGION)."""
    from samtranslator.translator.transform import transform

    translated: dict[str, Any] = transform(package_locally(template), parameters, _NoManagedPolicies())
    return translated
