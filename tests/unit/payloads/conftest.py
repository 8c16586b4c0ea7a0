"""Fixtures for the payload tests."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.unit.payloads.payload_corpus import schema_validator


@pytest.fixture(scope="session")
def validator() -> Draft202012Validator:
    return schema_validator()
