"""GET /capabilities: the interrupt facet and the conversation capability, from the host's settings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import jsonschema
import pytest

from tests.support.handlers import Handler, sample_event
from waitgate.tokens import TOKEN_ALGS


@pytest.fixture(autouse=True)
def fresh_settings() -> Iterator[None]:
    """Settings are cached per process (cold start); each test reads its own environment."""
    from waitgate.wiring import settings

    settings.settings.cache_clear()
    yield
    settings.settings.cache_clear()


def facet_schema() -> dict[str, Any]:
    text = resources.files("waitgate.schemas").joinpath("v2/facets/interrupt.schema.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


def capabilities(monkeypatch: pytest.MonkeyPatch, **environment: str) -> dict[str, Any]:
    monkeypatch.setenv("TABLE_NAME", "unused-by-this-route")
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    answer = Handler("capabilities")(sample_event("capabilities"))
    assert answer["statusCode"] == 200
    assert answer["headers"]["Content-Type"] == "application/json"
    body: dict[str, Any] = json.loads(answer["body"])
    return body


def test_default_host_advertises_every_ref_kind_and_conversations(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given the template's defaults
    # When anyone asks, without a bearer token (the route has no authorizer)
    body = capabilities(monkeypatch, REF_KINDS="principal,group,role", CONVERSATION_CAPABILITY="on")
    # Then the facet lists the token algs and all three ref kinds, and conversations are on
    assert body == {
        "facets": {"interrupt": {"tokenAlgs": list(TOKEN_ALGS), "refKinds": ["principal", "group", "role"]}},
        "capabilities": {"conversation": True},
    }
    # And the facet is valid against its schema
    jsonschema.validate(body["facets"]["interrupt"], facet_schema())


def test_configuration_narrows_what_is_advertised(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a host configured with roles only (in any order) and conversations off
    body = capabilities(monkeypatch, REF_KINDS="role,principal", CONVERSATION_CAPABILITY="off")
    # Then it advertises exactly that
    assert body["facets"]["interrupt"]["refKinds"] == ["principal", "role"]
    assert body["capabilities"] == {"conversation": False}
    jsonschema.validate(body["facets"]["interrupt"], facet_schema())


@pytest.mark.parametrize(
    "facet",
    [
        {"refKinds": ["group"]},
        {"tokenAlgs": [], "refKinds": []},
        {"tokenAlgs": ["hs256"], "refKinds": ["team"]},
        {"tokenAlgs": ["hs256"], "extra": True},
    ],
)
def test_facet_schema_refuses_what_the_spec_rules_out(facet: dict[str, Any]) -> None:
    # Given a facet without tokenAlgs, with none, with an unknown ref kind, or with an unknown member
    # When it is validated / Then the schema refuses it
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(facet, facet_schema())
