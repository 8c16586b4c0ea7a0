"""The local gateway's own answers, through its WSGI app: a handler that blows up is a 500
problem+json, with the token headers when the path holds a token; the access log never shows one."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from werkzeug.test import Client

from local.patches.lambda_runtime import FunctionRegistry
from local.standins.gateway import Gateway
from local.standins.jwt_issuer import LocalIssuer
from local.template.http_routes import Route

TOKEN = "ow2.hs256.k1.eyJhIjoxfQ.bWFj"
ROUTES = [
    Route("GET", "/interrupts/{token}", "InspectFunction", None),
    Route("POST", "/interrupts/{token}", "ResolveFunction", None),
    Route("GET", "/capabilities", "CapabilitiesFunction", None),
]


class FailingRuntime(FunctionRegistry):
    """A function runtime whose handlers all raise, as a handler failing outside its resolver would."""

    def invoke(self, function_name: str, event: Any) -> Any:
        raise RuntimeError(f"{function_name} failed on {event['rawPath']}")


@pytest.fixture(scope="module")
def gateway() -> Gateway:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    names = {route.function_logical_id: route.function_logical_id.lower() for route in ROUTES}
    return Gateway(ROUTES, names, FailingRuntime(), LocalIssuer(key, "http://127.0.0.1/.local-issuer"))


def test_a_failing_handler_on_a_link_is_a_500_with_the_token_headers(gateway: Gateway) -> None:
    # When the handler behind a link's URL raises
    answer = Client(gateway).post(f"/interrupts/{TOKEN}", data=b"{}", content_type="application/json")
    # Then 500 problem+json `internal`, never cached, no referrer, and nothing of the token or the error
    assert answer.status_code == 500
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    body = answer.get_data(as_text=True)
    assert json.loads(body)["code"] == "internal"
    assert TOKEN not in body and "failed on" not in body


def test_a_failing_handler_elsewhere_is_a_500_never_cached(gateway: Gateway) -> None:
    answer = Client(gateway).get("/capabilities")
    assert (answer.status_code, answer.headers["Cache-Control"]) == (500, "no-store")
    assert "Referrer-Policy" not in answer.headers


@pytest.mark.parametrize(
    ("logged", "shown"),
    [
        (f"POST /interrupts/{TOKEN} HTTP/1.1", "POST /interrupts/<token> HTTP/1.1"),
        (f"GET /interrupts/{TOKEN}?a=1 HTTP/1.1", "GET /interrupts/<token>?a=1 HTTP/1.1"),
        ("GET /capabilities HTTP/1.1", "GET /capabilities HTTP/1.1"),
    ],
)
def test_the_access_log_line_hides_a_token(gateway: Gateway, logged: str, shown: str) -> None:
    assert gateway.token_free(logged) == shown
