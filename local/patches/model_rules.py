"""What AWS checks of a request against botocore's service model, and botocore does not all check:
a string or blob over its `max`, a value outside its `enum`, a string that breaks its `pattern`, a
list or map with too many entries, a number over its `max` (and the rules botocore checks too, so
one report says everything). `local.patches.strict_requests` applies it to every call.

Patterns are Java regular expressions, which AWS matches whole (`matches()`); the `regex` module reads
their `\\p{...}` classes. A pattern neither module can compile is not checked (UNCHECKED_PATTERNS).
"""

from __future__ import annotations

import datetime
import decimal
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import regex
from botocore.model import OperationModel, Shape
from botocore.utils import parse_to_aware_datetime

CLIENT_SIDE_RULES = frozenset({"type", "required", "unknown", "union"})
UNCHECKED_PATTERNS: set[str] = set()  # patterns neither module could compile (not checked)
_NUMBERS = {"integer": (int,), "long": (int,), "float": (float, decimal.Decimal, int)}
_NUMBERS["double"] = _NUMBERS["float"]


@dataclass(frozen=True)
class Violation:
    """One member of one request that AWS would refuse, and by which rule."""

    operation: str  # "stepfunctions.SendTaskSuccess"
    path: str  # "output", "Target.RetryPolicy.MaximumRetryAttempts", "Items[3].PutRequest"
    rule: str  # type, required, unknown, union, min, max, pattern, enum
    detail: str  # what the model says, never the value
    shape_type: str = ""  # the member's type in the model: string, blob, list, …

    @property
    def client_side(self) -> bool:
        """botocore reports it itself (ParamValidationError) before anything is sent: all but `max`,
        `pattern`, `enum` and a blob's `min`."""
        return self.rule in CLIENT_SIDE_RULES or (self.rule == "min" and self.shape_type != "blob")

    def __str__(self) -> str:
        return f"{self.operation}: {self.path or '(input)'}: {self.detail} [{self.rule}]"


def check_request(operation: OperationModel, params: Any) -> list[Violation]:
    """What AWS would refuse in `params`, the input of `operation` (empty: it would take them)."""
    name = f"{operation.service_model.service_name}.{operation.name}"
    shape = operation.input_shape
    if shape is None:
        return []
    found: list[Violation] = []
    _Checker(name, found).check(params, shape, "")
    return found


@dataclass
class _Checker:
    operation: str
    found: list[Violation]

    def report(self, path: str, rule: str, detail: str, shape_type: str = "") -> None:
        self.found.append(Violation(self.operation, path, rule, detail, shape_type))

    def check(self, value: Any, shape: Shape, path: str) -> None:
        if shape.type_name == "structure" and getattr(shape, "is_document_type", False):
            return  # any JSON value
        check = getattr(self, f"_{shape.type_name}", None)
        if check is not None:
            check(value, shape, path)

    def _structure(self, value: Any, shape: Any, path: str) -> None:
        if not isinstance(value, dict):
            self.report(path, "type", f"a structure, not {type(value).__name__}")
            return
        if getattr(shape, "is_tagged_union", False) and len(value) != 1:
            self.report(path, "union", f"exactly one member of a union, not {len(value)}")
        for required in shape.required_members:
            if required not in value:
                self.report(_join(path, required), "required", "a required member is missing")
        for member, member_value in value.items():
            if member not in shape.members:
                self.report(_join(path, member), "unknown", "not a member of " + shape.name)
            else:
                self.check(member_value, shape.members[member], _join(path, member))

    def _list(self, value: Any, shape: Any, path: str) -> None:
        if not isinstance(value, list | tuple):
            self.report(path, "type", f"a list, not {type(value).__name__}")
            return
        self._bounds(len(value), shape, path, "entries")
        for index, item in enumerate(value):
            self.check(item, shape.member, f"{path}[{index}]")

    def _map(self, value: Any, shape: Any, path: str) -> None:
        if not isinstance(value, dict):
            self.report(path, "type", f"a map, not {type(value).__name__}")
            return
        self._bounds(len(value), shape, path, "entries")
        for key, item in value.items():
            self.check(key, shape.key, f"{path} (a key)")
            self.check(item, shape.value, f"{path}.{key}" if isinstance(key, str) else path)

    def _string(self, value: Any, shape: Shape, path: str) -> None:
        if not isinstance(value, str):
            self.report(path, "type", f"a string, not {type(value).__name__}")
            return
        self._bounds(len(value), shape, path, "characters")
        enum: list[str] = getattr(shape, "enum", None) or []
        if enum and value not in enum:
            shown = ", ".join(enum[:6]) + (", …" if len(enum) > 6 else "")
            self.report(path, "enum", f"not one of the {len(enum)} values ({shown})")
        pattern = shape.metadata.get("pattern")
        if pattern is not None and not _matches(pattern, value):
            self.report(path, "pattern", f"does not match the pattern {pattern}")

    def _blob(self, value: Any, shape: Shape, path: str) -> None:
        if isinstance(value, str):
            size = len(value.encode("utf-8"))
        elif isinstance(value, bytes | bytearray):
            size = len(value)
        elif hasattr(value, "read"):
            return  # a stream: its size is not known before it is sent
        else:
            self.report(path, "type", f"bytes, not {type(value).__name__}")
            return
        self._bounds(size, shape, path, "bytes")

    def _number(self, value: Any, shape: Shape, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, _NUMBERS[shape.type_name]):
            self.report(path, "type", f"a number ({shape.type_name}), not {type(value).__name__}")
            return
        self._bounds(value, shape, path, "")

    _integer = _long = _float = _double = _number

    def _boolean(self, value: Any, shape: Shape, path: str) -> None:
        if not isinstance(value, bool):
            self.report(path, "type", f"a boolean, not {type(value).__name__}")

    def _timestamp(self, value: Any, shape: Shape, path: str) -> None:
        if isinstance(value, datetime.datetime):
            return
        try:
            parse_to_aware_datetime(value)
        except (TypeError, ValueError, AttributeError):
            self.report(path, "type", f"a timestamp, not {type(value).__name__}")

    def _bounds(self, size: Any, shape: Shape, path: str, unit: str) -> None:
        metadata = shape.metadata
        low, high = metadata.get("min"), metadata.get("max")
        if low is not None and size < low:
            detail = f"{size:,} {unit}, fewer than {low:,}" if unit else f"less than {low}"
            self.report(path, "min", detail, shape.type_name)
        if high is not None and size > high:
            detail = f"{size:,} {unit}, more than {high:,}" if unit else f"more than {high}"
            self.report(path, "max", detail, shape.type_name)


def _join(path: str, member: str) -> str:
    return f"{path}.{member}" if path else member


@lru_cache(maxsize=1024)
def compiled_pattern(pattern: str) -> Any:
    """The model's Java pattern as the `regex` module reads it; None (and noted) when it cannot."""
    try:
        return regex.compile(pattern)
    except regex.error:
        UNCHECKED_PATTERNS.add(pattern)
        return None


def _matches(pattern: str, value: str) -> bool:
    compiled = compiled_pattern(pattern)
    return compiled is None or compiled.fullmatch(value) is not None
