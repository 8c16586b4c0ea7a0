"""The template's HttpApi on http://127.0.0.1:$WAITGATE_PORT: routes, JWT authorizer, payload v2.

No lock is held while a handler runs: a handler's DynamoDB write may run the stream handler on
another thread, and concurrent requests must really be concurrent.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass
from typing import Any

from werkzeug.serving import BaseWSGIServer, make_server
from werkzeug.wrappers import Request, Response

from local.patches.lambda_runtime import FunctionRegistry
from local.standins.gateway_requests import GatewayRequestHandler
from local.standins.held_ports import HeldPort
from local.standins.http_events import payload_v2_event, raw_path, response_from
from local.standins.jwt_authorizer import JwtAuthorizer, Unauthorized, gateway_claims
from local.standins.jwt_issuer import ISSUER_PATH, LocalIssuer
from local.standins.oidc_flow import OidcFlow
from local.standins.problem_json import problem
from local.template.http_routes import Route, token_path_prefixes
from waitgate.http.responses import TOKEN_RESPONSE_HEADERS

logger = logging.getLogger(__name__)
MAX_BODY_BYTES = 256 * 1024


@dataclass
class Gateway:
    """A WSGI app standing in for API Gateway in front of the stack's functions."""

    routes: list[Route]
    function_names: dict[str, str]
    functions: FunctionRegistry
    issuer: LocalIssuer
    sign_in: OidcFlow | None = None  # the issuer's browser sign-in (authorize, token)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ)
        return self.respond(request)(environ, start_response)

    def respond(self, request: Request) -> Response:
        if request.path.startswith(ISSUER_PATH + "/"):
            path = request.path.removeprefix(ISSUER_PATH)
            answer = self.sign_in.respond(path, request) if self.sign_in is not None else None
            return answer if answer is not None else self._issuer_document(path)
        path = raw_path(request)
        headers = self.refusal_headers(path)
        matches = [(r, p) for r in self.routes if (p := r.path_parameters(path)) is not None]
        if not matches:
            return problem(404, "not_found", "No route of the API matches this path.", headers)
        accepting = [(r, p) for r, p in matches if r.accepts(request.method)]
        if not accepting:
            allowed = ", ".join(sorted({route.method for route, _ in matches}))
            detail = f"{request.method} is not allowed here."
            return problem(405, "method_not_allowed", detail, {**headers, "Allow": allowed})
        if (request.content_length or 0) > MAX_BODY_BYTES:
            return problem(413, "payload_too_large", "The request body is over 256 KB.", headers)
        route, path_parameters = accepting[0]
        try:
            claims = self._authorize(route, request)
        except Unauthorized as reason:
            logger.debug("401 on %s: %s", route.route_key, reason)
            return problem(401, "unauthorized", "A valid bearer token is required.", headers)
        if len(request.get_data(cache=True)) > MAX_BODY_BYTES:
            return problem(413, "payload_too_large", "The request body is over 256 KB.", headers)
        return self._invoke(route, payload_v2_event(request, route, path_parameters, claims), headers)

    def refusal_headers(self, path: str) -> dict[str, str]:
        """What the gateway's own refusals of `path` carry: never cached; and on a path that may hold
        a signed token (under a route's `{token}` parameter), the token surface's headers too."""
        if any(path.startswith(prefix) for prefix in token_path_prefixes(self.routes)):
            return dict(TOKEN_RESPONSE_HEADERS)
        return {"Cache-Control": "no-store"}

    def token_free(self, text: str) -> str:
        """`text` (a request line, a path) with whatever follows a token path's prefix replaced."""
        for prefix in token_path_prefixes(self.routes):
            text = re.sub(re.escape(prefix) + r"[^\s?/]+", prefix + "<token>", text)
        return text

    def _authorize(self, route: Route, request: Request) -> dict[str, str] | None:
        if route.authorizer is None:
            return None
        authorizer = JwtAuthorizer(self.issuer, route.authorizer.audiences)
        return gateway_claims(authorizer.claims_of(request.headers.get("Authorization")))

    def _invoke(self, route: Route, event: dict[str, Any], headers: dict[str, str]) -> Response:
        function_name = self.function_names[route.function_logical_id]
        try:
            result = self.functions.invoke(function_name, event)
        except Exception:
            logger.exception("handler of %s failed on %s", function_name, event["routeKey"])
            return problem(500, "internal", "The handler failed.", headers)
        return response_from(result)

    def _issuer_document(self, path: str) -> Response:
        documents = {
            "/.well-known/jwks.json": self.issuer.jwks,
            "/.well-known/openid-configuration": self.issuer.openid_configuration,
        }
        if path not in documents:
            return problem(404, "not_found", "No such issuer document.")
        return Response(json.dumps(documents[path]()), content_type="application/json")


class GatewayServer:
    """The gateway on a threaded werkzeug server, on the stack's held socket (local.standins.held_ports)."""

    def __init__(self, gateway: Gateway, held: HeldPort) -> None:
        self._server: BaseWSGIServer = make_server(
            "127.0.0.1",
            held.port,
            gateway,
            threaded=True,
            request_handler=GatewayRequestHandler,
            fd=held.fileno(),
        )
        held.release()
        self._thread = threading.Thread(target=self._server.serve_forever, name="gateway", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_port)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=10)
