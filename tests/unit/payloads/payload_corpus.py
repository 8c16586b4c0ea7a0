"""Helpers the payload tests share: the corpus on disk and both validators' verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.payloads import parse_interrupt_payload
from waitgate.schemas import suspend_request_schema

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "payloads"


def corpus_files(verdict: str) -> list[Path]:
    return sorted((CORPUS / verdict).glob("*.json"))


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def schema_validator() -> Draft202012Validator:
    """The schema file's validator. Format assertion is on so that a nested schema's
    `pattern` must be a regex, which the models (jsonschema's check_schema) require too."""
    return Draft202012Validator(
        dict(suspend_request_schema()), format_checker=Draft202012Validator.FORMAT_CHECKER
    )


def model_accepts(payload: object) -> bool:
    """The models' verdict; any exception other than InterruptPayloadInvalidError escapes."""
    try:
        parse_interrupt_payload(payload)
    except InterruptPayloadInvalidError:
        return False
    return True
