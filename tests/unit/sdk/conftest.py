"""Fixtures for the SDK tests."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.unit.payloads.payload_corpus import schema_validator


@pytest.fixture(scope="session")
def schema() -> Draft202012Validator:
    """The InterruptPayload JSON Schema, format assertion on."""
    return schema_validator()
