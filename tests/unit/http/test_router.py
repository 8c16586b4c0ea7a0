"""The HTTP functions' router answers as Powertools' APIGatewayHttpResolver answered them: the route by
method and path (segments as API Gateway hands them), errors to the handler nearest their class, an
unknown route to the not-found handler, the proxy result API Gateway's HTTP API takes."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from waitgate.http.router import HttpApp, Response


def http_event(
    method: str, path: str, headers: dict[str, str] | None = None, stage: str = "$default"
) -> dict[str, Any]:
    return {
        "version": "2.0",
        "rawPath": path,
        "headers": headers or {},
        "requestContext": {"http": {"method": method, "path": path}, "stage": stage},
    }


def app_with_routes() -> HttpApp:
    app = HttpApp()

    @app.post("/runs/<runId>/interrupts/<nodeId>")
    def resolve(runId: str, nodeId: str) -> Response[str]:
        return Response(200, "text/plain", f"{runId}|{nodeId}")

    @app.route("/interrupts/<token>", method=["GET", "HEAD"])
    def inspect(token: str) -> Response[str]:
        return Response(200, "text/plain", f"{app.current_event.http_method} {token}")

    @app.get("/bytes")
    def raw() -> Response[bytes]:
        return Response(200, "application/octet-stream", b"\x00\x01", headers={"Vary": ["Accept", "Origin"]})

    @app.get("/fails")
    def fails() -> Response[str]:
        raise KeyError("boom")

    @app.not_found
    def unknown(_: Exception) -> Response[str]:
        return Response(404, "text/plain", "no route")

    @app.exception_handler(LookupError)
    def lookup(error: Exception) -> Response[str]:
        return Response(400, "text/plain", f"lookup {type(error).__name__}")

    @app.exception_handler(Exception)
    def bug(_: Exception) -> Response[str]:
        return Response(500, "text/plain", "bug")

    return app


def test_a_route_gets_its_segments_as_api_gateway_hands_them() -> None:
    answer = app_with_routes().resolve(http_event("POST", "/runs/run%201/interrupts/a:b"), None)
    assert answer == {
        "statusCode": 200,
        "body": "run%201|a:b",
        "isBase64Encoded": False,
        "headers": {"Content-Type": "text/plain"},
        "cookies": [],
    }


UNROUTED = [("GET", "/runs/r/interrupts/n"), ("POST", "/runs/r/interrupts/n/x"),
            ("POST", "/runs//interrupts/n"), ("DELETE", "/interrupts/t")]  # fmt: skip


@pytest.mark.parametrize(("method", "path"), UNROUTED)
def test_another_method_or_path_is_the_not_found_handlers(method: str, path: str) -> None:
    answer = app_with_routes().resolve(http_event(method, path), None)
    assert (answer["statusCode"], answer["body"]) == (404, "no route")


def test_a_route_may_take_several_methods_and_reads_the_request() -> None:
    answer = app_with_routes().resolve(http_event("HEAD", "/interrupts/tok"), None)
    assert answer["body"] == "HEAD tok"


def test_an_error_goes_to_the_handler_nearest_its_class() -> None:
    # KeyError is a LookupError: that handler, not the one for every Exception
    answer = app_with_routes().resolve(http_event("GET", "/fails"), None)
    assert (answer["statusCode"], answer["body"]) == (400, "lookup KeyError")


def test_a_bytes_body_is_base64_and_repeated_headers_are_joined() -> None:
    answer = app_with_routes().resolve(http_event("GET", "/bytes"), None)
    assert answer["isBase64Encoded"] is True
    assert base64.b64decode(answer["body"]) == b"\x00\x01"
    assert answer["headers"] == {"Vary": "Accept, Origin", "Content-Type": "application/octet-stream"}


def test_a_stage_other_than_default_is_not_part_of_the_path() -> None:
    answer = app_with_routes().resolve(http_event("HEAD", "/prod/interrupts/tok", stage="prod"), None)
    assert answer["body"] == "HEAD tok"


def test_headers_are_read_whatever_their_case_and_the_request_ends_with_its_answer() -> None:
    app = HttpApp()

    @app.get("/h")
    def header() -> Response[str]:
        return Response(200, "text/plain", app.current_event.headers.get("Accept"))

    assert app.resolve(http_event("GET", "/h", {"accept": "text/html"}), None)["body"] == "text/html"
    with pytest.raises(RuntimeError):
        _ = app.current_event


def test_an_error_without_a_handler_propagates() -> None:
    app = HttpApp()

    @app.get("/x")
    def fails() -> Response[str]:
        raise ValueError("unhandled")

    with pytest.raises(ValueError, match="unhandled"):
        app.resolve(http_event("GET", "/x"), None)
