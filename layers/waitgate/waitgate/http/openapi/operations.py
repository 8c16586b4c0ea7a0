"""What an operation of the HTTP API is: its route, what it takes, and every answer it can give.

Refusals are derived from the domain errors a route can raise (their status and code), so the
document says what `http.problem` renders.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Final

from waitgate import errors as e

JSON: Final = "application/json"
PROBLEM: Final = "application/problem+json"
HTML: Final = "text/html"
FORM: Final = "application/x-www-form-urlencoded"
REPLAYED: Final = "Idempotent-Replayed"
RETRY_AFTER: Final = "Retry-After"
TOKEN_HEADERS: Final = ("Cache-Control", "Referrer-Policy", "X-Content-Type-Options", "Vary")
INSPECT_HEADERS: Final = (
    "Waitgate-Interrupt-Id",
    "Waitgate-Run-Id",
    "Waitgate-Node-Id",
    "Waitgate-Status",
    "Waitgate-Link-Expires-At",
)


@dataclass(frozen=True)
class Reply:
    """One status a route answers: its body (a component name) per media type, and its headers."""

    status: int
    description: str
    schema: str | None = None
    media: tuple[str, ...] = (JSON,)
    headers: tuple[str, ...] = ()
    required: tuple[str, ...] = ()  # headers always sent with this status


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    summary: str
    replies: tuple[Reply, ...]
    scope: str | tuple[str, ...] | None = None  # the bearer JWT's scope (a tuple: any one); None: no JWT
    body: str | None = None  # the request body's component name
    form: str | None = None  # the component of an urlencoded form it takes too (the human page's)
    keyed: bool = False  # takes an Idempotency-Key
    query: tuple[str, ...] = ()
    required_query: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    credential: str | None = None  # what authenticates a request that carries no bearer JWT

    @property
    def scopes(self) -> tuple[str, ...]:
        if self.scope is None:
            return ()
        return (self.scope,) if isinstance(self.scope, str) else self.scope


def refusals(
    *errors: type[e.WaitgateError],
    media: tuple[str, ...] = (PROBLEM,),
    headers: tuple[str, ...] = ("Cache-Control",),
    replayed: frozenset[int] = frozenset(),
) -> tuple[Reply, ...]:
    """problem+json answers, one per status, naming every code the route can give with it."""
    codes: dict[int, list[str]] = defaultdict(list)
    for error in errors:
        if error.code not in codes[error.status]:
            codes[error.status].append(error.code)
    return tuple(
        Reply(
            status,
            " or ".join(f"`{code}`" for code in codes[status]),
            "Problem",
            media,
            headers + ((REPLAYED,) if status in replayed else ()) + ((RETRY_AFTER,) if status == 503 else ()),
            (RETRY_AFTER,) if status == 503 else (),
        )
        for status in sorted(codes)
    )
