"""The OpenAPI 3.1 document of the HTTP API, generated from the code: the operation registry
(`operations`), the bodies' pydantic models (`bodies`) and the normative JSON Schemas of the layer.

The registry and the document's builder load on first use (PEP 562): the docs function's page and
assets (`browsable`, in this package) need neither, nor pydantic, at a cold start."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from waitgate.http.openapi.operations import Operation
    from waitgate.http.openapi.registry import OPERATIONS

__all__ = ["OPERATIONS", "Operation", "openapi_json"]


@lru_cache(maxsize=1)
def openapi_json() -> str:
    """The document as served (built once per process)."""
    from waitgate.http.openapi.document import build_document

    return json.dumps(build_document(), separators=(",", ":"), ensure_ascii=False)


def __getattr__(name: str) -> Any:
    if name == "Operation":
        from waitgate.http.openapi.operations import Operation

        return Operation
    if name == "OPERATIONS":
        from waitgate.http.openapi.registry import OPERATIONS

        return OPERATIONS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
