"""Every boto3 call checked against botocore's service model, as AWS checks it: refused when AWS would.

botocore's own ParamValidator (what a real client and moto run before a request is sent) checks types,
required members, unknown members and `min` only; AWS also refuses a string or blob over its `max`, a
value outside its `enum`, a string that breaks its `pattern`, a list or map with too many entries, a
number over its `max`. moto checks almost none of it. `check_request` checks all of it (the rules
botocore checks too, so one report says everything); `install` hooks it on every client of the
process, whichever session made it: it wraps `BaseClient._emit_api_params`, which every API call
passes through after the `provide-client-params` and `before-parameter-build` handlers have set the
parameters as they will be sent.

A violation of a rule that only AWS checks (max, pattern, enum, a blob's min) is answered as AWS
answers it: a `ClientError` with code `ValidationException` (HTTP 400), and one log line naming the
call, the member and the rule, never the value (it may be a task token). A violation botocore itself
reports is left to botocore (`ParamValidationError`, raised in the client as on AWS). Either way it is
recorded: the integration and e2e suites fail a test that made one (tests/integration/conftest.py).

Patterns are Java regular expressions, which AWS matches whole (`matches()`); the `regex` module reads
their `\\p{...}` classes. A pattern neither module can compile is not checked (and counted).
"""

from __future__ import annotations

import atexit
import datetime
import decimal
import json
import logging
import os
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import regex
from botocore.exceptions import ClientError
from botocore.model import OperationModel, Shape
from botocore.utils import parse_to_aware_datetime

from local.patches import replace_attribute

logger = logging.getLogger(__name__)
TALLY_VARIABLE = "WAITGATE_MODEL_CHECK_TALLY"  # a folder: each process writes its counts there at exit
CLIENT_SIDE_RULES = frozenset({"type", "required", "unknown", "union"})
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
def _compiled(pattern: str) -> Any:
    try:
        return regex.compile(pattern)
    except regex.error:
        TALLY.unchecked_patterns.add(pattern)
        return None


def _matches(pattern: str, value: str) -> bool:
    compiled = _compiled(pattern)
    return compiled is None or compiled.fullmatch(value) is not None


@dataclass
class Tally:
    """What the check saw in this process: calls per operation, and the violations not yet taken."""

    calls: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    unchecked_patterns: set[str] = field(default_factory=set)
    violations_seen: int = 0  # outside `expected_refusals()` blocks: zero over `make test`
    expected_seen: int = 0  # inside them: the refusals tests make on purpose
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, operation: str, found: list[Violation], expected: bool = False) -> None:
        with self.lock:
            self.calls[operation] += 1
            self.violations.extend(found)
            if expected:
                self.expected_seen += len(found)
            else:
                self.violations_seen += len(found)

    def take(self) -> list[Violation]:
        """The violations recorded since the last take (a test's own)."""
        with self.lock:
            taken, self.violations = self.violations, []
            return taken

    def summary(self) -> dict[str, Any]:
        with self.lock:
            return {
                "calls": sum(self.calls.values()),
                "operations": dict(sorted(self.calls.items())),
                "violations": self.violations_seen,
                "expectedRefusals": self.expected_seen,
                "uncheckedPatterns": sorted(self.unchecked_patterns),
            }


TALLY = Tally()
_EXPECTING: list[int] = [0]  # >0 while a test expects refusals (expected_refusals)


def refusal(violations: list[Violation]) -> ClientError:
    """The error AWS answers a request that breaks its model's constraints with."""
    message = "; ".join(str(v) for v in violations)
    response = {
        "Error": {"Code": "ValidationException", "Message": f"Refused as AWS would: {message}"},
        "ResponseMetadata": {"HTTPStatusCode": 400, "HTTPHeaders": {}},
    }
    return ClientError(response, violations[0].operation.split(".", 1)[1])


def _checking(emit_api_params: Any) -> Any:
    def emit_and_check(self: Any, api_params: Any, operation_model: Any, context: Any) -> Any:
        api_params = emit_api_params(self, api_params, operation_model, context)
        found = check_request(operation_model, api_params)
        operation = f"{operation_model.service_model.service_name}.{operation_model.name}"
        TALLY.record(operation, found, expected=bool(_EXPECTING[0]))
        server_side = [v for v in found if not v.client_side]
        for violation in found:
            if not _EXPECTING[0]:
                logger.error("AWS would refuse %s", violation)
        if server_side:
            raise refusal(server_side)
        return api_params  # botocore's own validator reports the rest

    return emit_and_check


def install() -> None:
    """Check every API call of every botocore client in this process (idempotent); with
    WAITGATE_MODEL_CHECK_TALLY set, write the counts to a file in that folder at exit."""
    from botocore.client import BaseClient

    replace_attribute(BaseClient, "_emit_api_params", _checking)
    folder = os.environ.get(TALLY_VARIABLE)
    if folder and not _TALLY_REGISTERED:
        _TALLY_REGISTERED.append(True)
        atexit.register(write_tally, Path(folder))


_TALLY_REGISTERED: list[bool] = []


def write_tally(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"model-check-{os.getpid()}.json"
    path.write_text(json.dumps(TALLY.summary(), indent=1), encoding="utf-8")


@contextmanager
def expected_refusals() -> Iterator[list[Violation]]:
    """A block that means to make AWS refuse a call: its violations are handed over, not failed on,
    and not logged as errors."""
    TALLY.take()
    _EXPECTING[0] += 1
    taken: list[Violation] = []
    try:
        yield taken
    finally:
        _EXPECTING[0] -= 1
        taken.extend(TALLY.take())
