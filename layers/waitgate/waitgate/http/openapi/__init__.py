"""The OpenAPI 3.1 document of the HTTP API, generated from the code: the operation registry
(`operations`), the bodies' pydantic models (`bodies`) and the normative JSON Schemas of the layer."""

from __future__ import annotations

import json
from functools import lru_cache

from waitgate.http.openapi.document import build_document
from waitgate.http.openapi.operations import Operation
from waitgate.http.openapi.registry import OPERATIONS

__all__ = ["OPERATIONS", "Operation", "openapi_json"]


@lru_cache(maxsize=1)
def openapi_json() -> str:
    """The document as served (built once per process)."""
    return json.dumps(build_document(), separators=(",", ":"), ensure_ascii=False)
