"""The normative JSON Schemas shipped with the layer, loaded once per process.

`load_schema("suspend-request")` reads `schemas/v2/suspend-request.schema.json` (the
InterruptPayload). The returned mapping is shared and cached: treat it as read-only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any, Final

SUSPEND_REQUEST: Final = "suspend-request"


@lru_cache(maxsize=32)
def load_schema(name: str, version: str = "v2") -> Mapping[str, Any]:
    """Return the parsed schema `<version>/<name>.schema.json`.

    Raises FileNotFoundError for an unknown schema and ValueError for a path-like name.
    """
    if "/" in name or "\\" in name or name.startswith("."):
        raise ValueError(f"not a schema name: {name!r}")
    resource = resources.files(__name__).joinpath(version, f"{name}.schema.json")
    parsed: Any = json.loads(resource.read_text(encoding="utf-8"))
    if not isinstance(parsed, dict):
        raise ValueError(f"schema {version}/{name} is not a JSON object")
    return parsed


def suspend_request_schema() -> Mapping[str, Any]:
    """The InterruptPayload schema (draft 2020-12)."""
    return load_schema(SUSPEND_REQUEST)
