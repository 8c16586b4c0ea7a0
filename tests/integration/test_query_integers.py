"""Every integer query parameter of every route, read from the served OpenAPI document: the handler
accepts exactly the integers the document advertises (its minimum, maximum and default) and refuses
everything else — out of bounds, signs, exponents, non-ASCII digits, 5,000 digits — with 400
validation_error naming the parameter, never a 5xx."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integration.conftest import create_table_from_template
from tests.integration.test_openapi_document import get
from tests.support.handlers import Handler, sample_event

# the function behind each operation that takes an integer in its query (a new one must be added here)
FUNCTIONS = {
    "listRunEvents": "list_run_events",
    "listInterrupts": "list_interrupts",
    "listWebhookEvents": "list_webhook_events",
    "listSubscriptionDeliveries": "manage_subscriptions",
}
NOT_INTEGERS = ["abc", "1e3", "+5", "-1", " 5", "5 ", "0x10", "1.0", "1_0", "²", "①", "٣", "５", "5" * 5000]


def integer_parameters() -> list[tuple[str, str, dict[str, Any]]]:
    document = json.loads(get(Handler("openapi_docs"), "/openapi.json")["body"])
    components = document.get("components", {}).get("parameters", {})
    found = []
    for item in document["paths"].values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if "$ref" in parameter:
                    parameter = components[parameter["$ref"].rsplit("/", 1)[-1]]
                if parameter["in"] == "query" and parameter["schema"].get("type") == "integer":
                    found.append((operation["operationId"], parameter["name"], parameter["schema"]))
    return found


PARAMETERS = integer_parameters()


def test_every_advertised_integer_parameter_is_bounded_and_has_its_function() -> None:
    assert {operation for operation, _, _ in PARAMETERS} == set(FUNCTIONS)
    for operation, name, schema in PARAMETERS:
        assert {"minimum", "maximum", "default"} <= set(schema), (operation, name)
        assert schema["minimum"] <= schema["default"] <= schema["maximum"], (operation, name)


def answer(operation: str, name: str, value: str) -> tuple[int, dict[str, Any]]:
    function = FUNCTIONS[operation]
    event = sample_event(function)
    event["queryStringParameters"] = {**(event.get("queryStringParameters") or {}), name: value}
    event["rawQueryString"] = "&".join(f"{k}={v}" for k, v in event["queryStringParameters"].items())
    event["requestContext"]["authorizer"]["jwt"]["claims"]["scope"] = (
        "approvals:respond runs:read subscriptions:manage"
    )
    response = Handler(function)(event)
    return response["statusCode"], json.loads(response["body"])


@pytest.mark.parametrize(
    ("operation", "name", "schema"), PARAMETERS, ids=[f"{op}-{name}" for op, name, _ in PARAMETERS]
)
def test_the_code_accepts_exactly_the_documents_integers(
    environment: None,
    dynamodb: Any,
    monkeypatch: pytest.MonkeyPatch,
    operation: str,
    name: str,
    schema: dict[str, Any],
) -> None:
    if FUNCTIONS[operation] == "manage_subscriptions":  # subscriptions live in the directory table
        directory = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-test")
        monkeypatch.setenv("DIRECTORY_TABLE_NAME", directory)
        from waitgate.wiring import composition

        composition.forget_instances()
    low, high = schema["minimum"], schema["maximum"]
    # Given the document's bounds / Then the code accepts the minimum, the default and the maximum
    for value in {low, schema["default"], high}:
        status, body = answer(operation, name, str(value))
        assert status != 400 or body.get("path") != name, (value, body)
        assert status < 500, body
    # And refuses just outside them, and anything that is not ASCII digits, as 400 naming the parameter
    outside = [str(high + 1), *([str(low - 1)] if low > 0 else [])]
    for value in outside + NOT_INTEGERS:
        status, body = answer(operation, name, value)
        refusal = (status, body.get("code"), body.get("path"))
        assert refusal == (400, "validation_error", name), (value[:20], body)
