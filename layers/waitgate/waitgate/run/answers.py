"""An answer as the caller receives it: status, exact body text, content type — and what it means.

Rendered once, so a replay under the same Idempotency-Key is the same bytes as the first answer. Its
meaning travels beside the bytes: a refusal's `problem` (code, detail, path), a success's `value` (the
JSON value its body renders). The edges that show an answer otherwise (the human page, a Slack reply)
read those fields; only HTTP sends the body.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from waitgate.errors import WaitgateError
from waitgate.run.problem_details import PROBLEM_CONTENT_TYPE, Problem, problem_for, problem_of

JSON_CONTENT_TYPE = "application/json"


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    content_type: str = JSON_CONTENT_TYPE
    replayed: bool = False
    problem: Problem | None = None  # a refusal's meaning (None: not a refusal)
    value: Any = None  # a success's JSON value, as its body renders it


def json_answer(status: int, value: Any) -> Answer:
    return Answer(status, json.dumps(value, separators=(",", ":"), ensure_ascii=False), value=value)


def problem_answer(error: WaitgateError) -> Answer:
    status, body = problem_for(error)
    return Answer(status, body, PROBLEM_CONTENT_TYPE, problem=problem_of(error))
