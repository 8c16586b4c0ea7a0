"""The schema file and the pydantic models give the same verdict on every corpus payload."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.unit.payloads.payload_corpus import CORPUS, corpus_files, load, model_accepts
from waitgate.payloads import INTERRUPT_KINDS

CASES = [
    pytest.param(path, id=f"{path.parent.name}/{path.stem}")
    for verdict in ("valid", "invalid")
    for path in corpus_files(verdict)
]


def test_schema_file_is_a_valid_draft_2020_12_schema() -> None:
    # Given the shipped schema file / When checked against the metaschema / Then it passes
    from waitgate.schemas import suspend_request_schema

    Draft202012Validator.check_schema(dict(suspend_request_schema()))


def test_corpus_covers_every_kind_and_enough_invalid_cases() -> None:
    # Given the corpus folders
    valid_kinds = Counter(load(path)["kind"] for path in corpus_files("valid"))
    # Then every kind has at least 3 valid payloads and there are at least 30 invalid ones
    assert {kind: valid_kinds[kind] >= 3 for kind in INTERRUPT_KINDS} == dict.fromkeys(INTERRUPT_KINDS, True)
    assert len(corpus_files("invalid")) >= 30
    assert CORPUS.is_dir()


@pytest.mark.parametrize("path", CASES)
def test_schema_and_models_agree_with_the_folder(path: Path, validator: Draft202012Validator) -> None:
    # Given a corpus payload whose folder is its expected verdict
    payload = load(path)
    expected = path.parent.name == "valid"
    # When both the JSON Schema and the models judge it
    by_schema = validator.is_valid(payload)
    by_models = model_accepts(payload)
    # Then both verdicts equal the folder's
    assert (by_schema, by_models) == (expected, expected)
