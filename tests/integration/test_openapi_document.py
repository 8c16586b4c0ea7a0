"""GET /openapi.json and /docs: the OpenAPI 3.1 document generated from the code, checked against the
template's routes and the spec's operation names; the browsable view needs no internet."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from local.template.sam_template import load_template
from tests.support.handlers import Handler, sample_event
from waitgate.http.openapi.browsable import ASSET_TYPES

CORPUS = Path(__file__).resolve().parents[1] / "unit" / "corpus" / "payloads"
SPEC_OPERATIONS = {"resolveInterruptByRun", "inspectInterruptByToken", "resolveInterruptByToken"}
PROFILE_OPERATIONS = {"mintInterruptToken", "getRun", "listRunEvents", "capabilities", "getOpenApi"}
PROBLEM_MEMBERS = {"type", "title", "status", "detail", "code"}


def get(handler: Handler, path: str) -> dict[str, Any]:
    event = sample_event("openapi_docs")
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    route = "/docs/{asset}" if path.startswith("/docs/") else path
    event["routeKey"] = event["requestContext"]["routeKey"] = f"GET {route}"
    if route == "/docs/{asset}":
        event["pathParameters"] = {"asset": path.removeprefix("/docs/")}
    answer: dict[str, Any] = handler(event)
    return answer


@pytest.fixture(scope="module")
def handler() -> Handler:
    return Handler("openapi_docs")


@pytest.fixture(scope="module")
def document(handler: Handler) -> dict[str, Any]:
    answer = get(handler, "/openapi.json")
    assert answer["statusCode"] == 200
    assert answer["headers"]["Content-Type"] == "application/json"
    served: dict[str, Any] = json.loads(answer["body"])
    return served


def operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method.upper(), path): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }


def template_routes() -> set[tuple[str, str]]:
    return {
        (str(event["Properties"]["Method"]).upper(), event["Properties"]["Path"])
        for resource in load_template()["Resources"].values()
        if resource["Type"] == "AWS::Serverless::Function"
        for event in resource["Properties"].get("Events", {}).values()
        if event["Type"] == "HttpApi"
    }


def test_the_served_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    # Given the function's answer to GET /openapi.json / Then the OpenAPI 3.1 validator finds no error
    assert document["openapi"].startswith("3.1.")
    errors = [error.message for error in OpenAPIV31SpecValidator(document).iter_errors()]
    assert errors == []


def test_it_covers_exactly_the_templates_http_routes(document: dict[str, Any]) -> None:
    # Given template.yaml's HttpApi events / Then the document has the same (method, path) set, no more
    assert set(operations(document)) == template_routes()


def test_operation_ids_are_the_specs_names_and_unique(document: dict[str, Any]) -> None:
    ids = [operation["operationId"] for operation in operations(document).values()]
    assert len(ids) == len(set(ids))
    assert set(ids) >= SPEC_OPERATIONS | PROFILE_OPERATIONS
    by_id = {operation["operationId"]: key for key, operation in operations(document).items()}
    assert by_id["resolveInterruptByRun"] == ("POST", "/runs/{runId}/interrupts/{nodeId}")
    assert by_id["inspectInterruptByToken"] == ("GET", "/interrupts/{token}")
    assert by_id["resolveInterruptByToken"] == ("POST", "/interrupts/{token}")


def test_every_resolve_and_mint_takes_an_idempotency_key_and_says_when_it_replayed(
    document: dict[str, Any],
) -> None:
    # Given the operations that change state / Then each takes the header and marks replays
    for operation_id, success in (
        ("resolveInterruptByRun", "200"),
        ("resolveInterruptByToken", "200"),
        ("mintInterruptToken", "201"),
    ):
        operation = next(o for o in operations(document).values() if o["operationId"] == operation_id)
        key = document["components"]["parameters"]["IdempotencyKey"]
        assert {"$ref": "#/components/parameters/IdempotencyKey"} in operation["parameters"]
        assert key["name"] == "Idempotency-Key" and key["schema"]["maxLength"] == 255
        assert "Idempotent-Replayed" in operation["responses"][success]["headers"]
        assert "Idempotent-Replayed" in operation["responses"]["409"]["headers"]
        assert {"400", "409", "413", "415", "422", "503"} <= set(operation["responses"])


def test_every_refusal_is_problem_json_with_the_five_members(document: dict[str, Any]) -> None:
    problem = document["components"]["schemas"]["Problem"]
    assert set(problem["required"]) >= PROBLEM_MEMBERS
    for (method, path), operation in operations(document).items():
        for status, response in operation["responses"].items():
            if int(status) < 400 or method == "HEAD" or path == "/mcp":
                continue
            schema = response["content"]["application/problem+json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/Problem"}, (method, path, status)


def test_the_mcp_endpoint_answers_as_mcp_does_but_the_gateways_413(document: dict[str, Any]) -> None:
    # Given POST /mcp (docs/mcp.md): its refusals are MCP's, JSON-RPC errors and RFC 6750's 401
    responses = operations(document)[("POST", "/mcp")]["responses"]
    for status in ("400", "401", "404", "415"):
        assert set(responses[status]["content"]) == {"application/json"}, status
    assert responses["401"]["headers"]["WWW-Authenticate"]["required"] is True
    # And only the gateway's own refusal (a body past 256 KB) is problem+json
    assert responses["413"]["content"]["application/problem+json"]["schema"] == {
        "$ref": "#/components/schemas/Problem"
    }


def test_security_bearer_jwt_with_the_profiles_scopes_and_tokens_in_the_path(
    document: dict[str, Any],
) -> None:
    scheme = document["components"]["securitySchemes"]["bearerJwt"]
    assert (scheme["type"], scheme["scheme"], scheme["bearerFormat"]) == ("http", "bearer", "JWT")
    scopes = {o["operationId"]: o["security"] for o in operations(document).values()}
    assert scopes["resolveInterruptByRun"] == [{"bearerJwt": ["approvals:respond"]}]
    assert scopes["mintInterruptToken"] == [{"bearerJwt": ["interrupts:mint"]}]
    assert scopes["getRun"] == scopes["listRunEvents"] == [{"bearerJwt": ["runs:read"]}]
    assert scopes["resolveInterruptByToken"] == scopes["inspectInterruptByToken"] == []
    inspect = operations(document)[("GET", "/interrupts/{token}")]
    assert {"Waitgate-Interrupt-Id", "Waitgate-Status", "Referrer-Policy"} <= set(
        inspect["responses"]["200"]["headers"]
    )


def components_validator(document: dict[str, Any], name: str) -> Draft202012Validator:
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource("urn:openapi", resource)
    return Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{name}"}, registry=registry)


@pytest.mark.parametrize("path", sorted((CORPUS / "valid").glob("*.json")), ids=lambda p: p.stem)
def test_the_documents_interrupt_payload_accepts_the_valid_corpus(
    document: dict[str, Any], path: Path
) -> None:
    # Given a payload the normative schema accepts / Then the document's InterruptPayload does too
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert list(components_validator(document, "InterruptPayload").iter_errors(payload)) == []


def test_the_docs_page_loads_only_its_own_assets_under_a_self_only_csp(handler: Handler) -> None:
    # Given GET /docs / Then an HTML page whose scripts and styles all come from /docs/<asset>
    page = get(handler, "/docs")
    assert page["statusCode"] == 200 and page["headers"]["Content-Type"].startswith("text/html")
    policy = page["headers"]["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy and "http" not in policy
    sources = re.findall(r'(?:src|href)="([^"]+)"', page["body"])
    assert sources and all(source.removeprefix("docs/") in ASSET_TYPES for source in sources)
    assert "<script>" not in page["body"]


@pytest.mark.parametrize("name", sorted(ASSET_TYPES))
def test_every_docs_asset_is_served_by_the_function(handler: Handler, name: str) -> None:
    answer = get(handler, f"/docs/{name}")
    assert answer["statusCode"] == 200
    assert answer["headers"]["Content-Type"] == ASSET_TYPES[name]
    assert len(answer["body"]) > 100


def test_an_unknown_docs_asset_is_a_problem_404(handler: Handler) -> None:
    answer = get(handler, "/docs/..%2Fapp.py")
    assert answer["statusCode"] == 404
    assert answer["headers"]["Content-Type"] == "application/problem+json"
    assert json.loads(answer["body"])["code"] == "not_found"


def test_docs_with_a_trailing_slash_redirects_to_the_page(handler: Handler) -> None:
    # Given GET /docs/, which API Gateway routes to GET /docs (rawPath keeps the slash)
    event = sample_event("openapi_docs")
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/docs/"
    event["routeKey"] = event["requestContext"]["routeKey"] = "GET /docs"
    # When the function answers, Then it sends the browser to the page, whose links are relative to /docs
    answer = handler(event)
    assert (answer["statusCode"], answer["headers"]["Location"]) == (308, "../docs")


def test_the_inbox_operations_are_listed_with_their_scopes_and_query(document: dict[str, Any]) -> None:
    # Given the inbox (docs/inbox.md) / Then its three operations, either scope for the JWT ones
    by_id = {o["operationId"]: o for o in operations(document).values()}
    assert by_id["listInterrupts"]["security"] == [
        {"bearerJwt": ["approvals:respond"]},
        {"bearerJwt": ["runs:read"]},
    ]
    assert by_id["getInboxItem"]["security"] == by_id["listInterrupts"]["security"]
    assert by_id["getInboxPage"]["security"] == []
    query = {p["name"]: p for p in by_id["listInterrupts"]["parameters"]}
    assert set(query) == {"status", "eligible", "decidedBy", "kind", "runId", "limit", "cursor"}
    assert query["limit"]["schema"]["maximum"] == 100
    listed = document["components"]["schemas"]["InterruptList"]
    assert set(listed["properties"]) == {"items", "next"} and listed["required"] == ["items"]
    resolve = by_id["resolveInterruptByRun"]["requestBody"]["content"]
    assert set(resolve) == {"application/json", "application/x-www-form-urlencoded"}
