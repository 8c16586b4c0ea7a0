"""Compile each JSON Schema once: validators are cached by the schema's canonical JSON text.

Two schemas that differ only in key order or whitespace share one compiled validator.
`compile_count()` / `cache_info()` let tests prove a schema is compiled once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from waitgate.errors import ValidationFailedError

if TYPE_CHECKING:
    from functools import _CacheInfo

    from jsonschema import Draft202012Validator

# jsonschema (~40 ms to import) is loaded when a schema is first compiled, not at cold start:
# most requests never meet a resumeSchema, an outcomeSchema or a question's schema.

_CACHE_SIZE = 512


def canonical_json(value: object) -> str:
    """Key-sorted, compact JSON text of a JSON value: the cache key."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@lru_cache(maxsize=_CACHE_SIZE)
def _compile(canonical: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    schema: Any = json.loads(canonical)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def validator_for(schema: Mapping[str, Any]) -> Draft202012Validator:
    """The compiled validator of `schema`; raises jsonschema SchemaError if it is not valid."""
    return _compile(canonical_json(schema))


def cache_info() -> _CacheInfo:
    """Hits, misses (= compilations) and size of the compiled-validator cache."""
    return _compile.cache_info()


def clear_cache() -> None:
    _compile.cache_clear()


def json_schema_problem(schema: Mapping[str, Any]) -> str | None:
    """Why `schema` is not a usable draft 2020-12 schema (regexes included), or None.

    A valid schema is compiled (and cached) on the way, so checking it at request time
    makes the first resolve cheap.
    """
    from jsonschema.exceptions import SchemaError

    try:
        validator_for(schema)
    except SchemaError as exc:
        where = exc.json_path.removeprefix("$")
        return f"not a valid JSON Schema at schema{where}: {exc.message}"
    except (TypeError, ValueError, RecursionError) as exc:
        return f"not a valid JSON Schema: {exc}"
    return None


def validate_against_schema(value: object, schema: Mapping[str, Any], where: str) -> None:
    """Raise ValidationFailedError when `value` fails `schema`.

    The detail names the failing JSON path under `where` (e.g. "resumeValue.amount: ...");
    the error's `path` extension carries the same path.
    """
    from jsonschema.exceptions import ValidationError, best_match

    error: ValidationError | None = best_match(validator_for(schema).iter_errors(value))
    if error is None:
        return
    path = where + error.json_path.removeprefix("$")
    raise ValidationFailedError(f"{path}: {error.message}", path=path)
