"""Every boto3 call checked against botocore's service model, as AWS checks it: refused when AWS would.

botocore's own ParamValidator (what a real client and moto run before a request is sent) checks types,
required members, unknown members and `min` only; AWS also refuses a string or blob over its `max`, a
value outside its `enum`, a string that breaks its `pattern`, a list or map with too many entries, a
number over its `max`. moto checks almost none of it. `check_request` (local.patches.model_rules)
checks all of it (the rules botocore checks too, so one report says everything); `install` hooks it
on every client of the process, whichever session made it: it wraps `BaseClient._emit_api_params`,
which every API call passes through after the `provide-client-params` and `before-parameter-build`
handlers have set the parameters as they will be sent.

A violation of a rule that only AWS checks (max, pattern, enum, a blob's min) is answered as AWS
answers it: a `ClientError` with code `ValidationException` (HTTP 400), and one log line naming the
call, the member and the rule, never the value (it may be a task token). A violation botocore itself
reports is left to botocore (`ParamValidationError`, raised in the client as on AWS). Either way it is
recorded: the integration and e2e suites fail a test that made one (tests/integration/conftest.py).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from botocore.exceptions import ClientError

from local.patches import replace_attribute
from local.patches.model_rules import UNCHECKED_PATTERNS, Violation, check_request

logger = logging.getLogger(__name__)
TALLY_VARIABLE = "WAITGATE_MODEL_CHECK_TALLY"  # a folder: each process writes its counts there at exit


@dataclass
class Tally:
    """What the check saw in this process: calls per operation, and the violations not yet taken."""

    calls: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
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
                "uncheckedPatterns": sorted(UNCHECKED_PATTERNS),
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
