"""The HttpApi routes of the SAM template: each function's `Events` of `Type: HttpApi`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from local.template.intrinsics import Intrinsics

IMPLICIT_API = "ServerlessHttpApi"
_PARAMETER = re.compile(r"\{([^}/]+?)(\+?)\}")


@dataclass(frozen=True)
class JwtRequirement:
    """The JWT authorizer guarding a route: name and accepted audiences."""

    name: str
    audiences: tuple[str, ...]


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    function_logical_id: str
    authorizer: JwtRequirement | None

    @property
    def route_key(self) -> str:
        return "$default" if self.path == "$default" else f"{self.method} {self.path}"

    @property
    def pattern(self) -> re.Pattern[str]:
        if self.path == "$default":
            return re.compile(r"(?P<proxy>.*)")
        expression, position = "", 0
        for match in _PARAMETER.finditer(self.path):
            expression += re.escape(self.path[position : match.start()])
            greedy = match.group(2) == "+"
            expression += f"(?P<{match.group(1)}>{'.+' if greedy else '[^/]+'})"
            position = match.end()
        return re.compile(expression + re.escape(self.path[position:]))

    @property
    def specificity(self) -> tuple[int, int, int]:
        """API Gateway prefers literal paths, then fewer greedy parameters, then exact methods."""
        literal_segments = sum("{" not in part for part in self.path.split("/"))
        return (self.path != "$default", "+}" not in self.path, literal_segments)

    def path_parameters(self, path: str) -> dict[str, str] | None:
        """The route's parameters in `path`, or None when it does not match. Like API Gateway, a
        trailing slash is ignored in matching (`/docs/` reaches `GET /docs`; rawPath keeps it)."""
        if self.path == "$default":
            return {}
        match = self.pattern.fullmatch(path)
        if match is None and len(path) > 1 and path.endswith("/"):
            match = self.pattern.fullmatch(path[:-1])
        if match is None:
            return None
        return {name: unquote(value) for name, value in match.groupdict().items()}

    def accepts(self, method: str) -> bool:
        return self.method in {"ANY", method.upper()} or self.path == "$default"


def token_path_prefixes(routes: list[Route]) -> frozenset[str]:
    """Where a path may hold a signed token: the literal start of each route with a `{token}`."""
    return frozenset(route.path.split("{token}", 1)[0] for route in routes if "{token}" in route.path)


def routes_of(sam_template: dict[str, Any], intrinsics: Intrinsics) -> list[Route]:
    """Every HttpApi event of every function, most specific first."""
    resources = sam_template.get("Resources", {})
    routes = [
        _route(logical_id, event.get("Properties", {}), resources, sam_template, intrinsics)
        for logical_id, resource in resources.items()
        if resource.get("Type") == "AWS::Serverless::Function"
        for event in resource.get("Properties", {}).get("Events", {}).values()
        if event.get("Type") == "HttpApi"
    ]
    return sorted(routes, key=lambda route: route.specificity, reverse=True)


def _route(
    function_id: str,
    event: dict[str, Any],
    resources: dict[str, Any],
    sam_template: dict[str, Any],
    intrinsics: Intrinsics,
) -> Route:
    api_ref = event.get("ApiId", {})
    api_id = api_ref.get("Ref", IMPLICIT_API) if isinstance(api_ref, dict) else IMPLICIT_API
    api_auth = _api_auth(api_id, resources, sam_template)
    name = event.get("Auth", {}).get("Authorizer") or api_auth.get("DefaultAuthorizer")
    authorizer = None
    if name and name != "NONE":
        configuration = api_auth.get("Authorizers", {})[name].get("JwtConfiguration", {})
        audience = intrinsics.resolve(configuration.get("audience", []))
        audiences = tuple([audience] if isinstance(audience, str) else audience)
        authorizer = JwtRequirement(name, audiences)
    return Route(
        method=str(event.get("Method", "ANY")).upper(),
        path=event.get("Path", "$default"),
        function_logical_id=function_id,
        authorizer=authorizer,
    )


def _api_auth(api_id: str, resources: dict[str, Any], sam_template: dict[str, Any]) -> Any:
    if api_id in resources:
        return resources[api_id].get("Properties", {}).get("Auth", {})
    return sam_template.get("Globals", {}).get("HttpApi", {}).get("Auth", {})
