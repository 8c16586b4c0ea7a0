"""The document's `components.schemas`: our pydantic bodies, and the normative JSON Schemas shipped with
the layer (the InterruptPayload, the interrupt facet), their `$defs` lifted into components."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final

from pydantic.json_schema import models_json_schema

from waitgate.http.openapi.bodies import MODELS, REQUEST_BODIES
from waitgate.schemas import load_schema, suspend_request_schema

SCHEMA_REF: Final = "#/components/schemas/"
_DRAFT_2020_12: Final = "https://json-schema.org/draft/2020-12/schema"


def ref(name: str) -> dict[str, str]:
    return {"$ref": SCHEMA_REF + name}


def component_schemas() -> dict[str, Any]:
    """Every named schema of the document, keyed by its component name."""
    schemas = body_schemas()
    for name, schema in (
        *normative_schemas(suspend_request_schema(), "InterruptPayload").items(),
        *normative_schemas(load_schema("interrupt", "v2/facets"), "InterruptFacet").items(),
    ):
        if name in schemas:
            raise ValueError(f"two component schemas named {name}")
        schemas[name] = schema
    return schemas


def body_schemas() -> dict[str, Any]:
    """The pydantic models' schemas: request bodies as validated, answers as serialized."""
    modes = [(model, "validation" if model in REQUEST_BODIES else "serialization") for model in MODELS]
    _, top = models_json_schema(modes, ref_template=SCHEMA_REF + "{model}")  # type: ignore[arg-type]
    schemas: dict[str, Any] = top["$defs"]
    for schema in schemas.values():
        for name, member in (schema.get("properties") or {}).items():
            schema["properties"][name] = _omittable(member)
    schemas["Facets"]["properties"]["interrupt"] = ref("InterruptFacet")
    return schemas


def _omittable(member: dict[str, Any]) -> dict[str, Any]:
    """A member that is absent rather than null (the answers never carry null for "none")."""
    member = {key: value for key, value in member.items() if key != "title"}
    if "default" in member and member["default"] is None:
        del member["default"]
        options = [option for option in member.pop("anyOf", []) if option != {"type": "null"}]
        if len(options) == 1:
            member.update(options[0])
        elif options:
            member["anyOf"] = options
    return member


def normative_schemas(schema: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A shipped draft 2020-12 schema as components: `#/$defs/x` becomes `#/components/schemas/x`.
    The draft's own meta-schema is not embedded (offline tools cannot fetch it): a `jsonSchema`
    member is described as an object."""
    root = _rewritten(copy.deepcopy(dict(schema)))
    defs: dict[str, Any] = root.pop("$defs", {})
    for key in ("$schema", "$id"):
        root.pop(key, None)
    return {name: root, **defs}


def _rewritten(node: Any) -> Any:
    if isinstance(node, list):
        return [_rewritten(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _rewritten(value) for key, value in node.items()}
    target = out.get("$ref")
    if target == _DRAFT_2020_12:
        del out["$ref"]
        out["description"] = out.get("description") or "A JSON Schema (draft 2020-12) as an object."
    elif isinstance(target, str) and target.startswith("#/$defs/"):
        out["$ref"] = SCHEMA_REF + target.removeprefix("#/$defs/")
    mapping = out.get("mapping")
    if isinstance(mapping, dict) and all(isinstance(v, str) for v in mapping.values()):
        out["mapping"] = {k: v.replace("#/$defs/", SCHEMA_REF) for k, v in mapping.items()}
    return out
