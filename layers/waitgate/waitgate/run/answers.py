"""An answer as the caller receives it: status, exact body text, content type.

Rendered once, so a replay under the same Idempotency-Key is the same bytes as the first answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from waitgate.errors import WaitgateError
from waitgate.run.problem_details import PROBLEM_CONTENT_TYPE, problem_for

JSON_CONTENT_TYPE = "application/json"


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    content_type: str = JSON_CONTENT_TYPE
    replayed: bool = False


def json_answer(status: int, body: Any) -> Answer:
    return Answer(status, json.dumps(body, separators=(",", ":"), ensure_ascii=False))


def problem_answer(error: WaitgateError) -> Answer:
    status, body = problem_for(error)
    return Answer(status, body, PROBLEM_CONTENT_TYPE)
