"""The OpenAPI 3.1 document, assembled from the operation registry and the component schemas."""

from __future__ import annotations

import re
from typing import Any, Final

from waitgate.http.openapi.browsable import ASSET_TYPES
from waitgate.http.openapi.components import component_schemas, ref
from waitgate.http.openapi.operations import FORM, PROBLEM, Operation, Reply
from waitgate.http.openapi.registry import OPERATIONS
from waitgate.http.openapi.subscription_routes import SUBSCRIPTION_PARAMETERS
from waitgate.payloads.kinds import INTERRUPT_KINDS
from waitgate.service import list_interrupts, read_runs, read_webhook_events

TITLE: Final = "waitgate"
API_VERSION: Final = "2.1.0"
BEARER: Final = "bearerJwt"
IDEMPOTENCY_KEY: Final = "IdempotencyKey"
_PATH_PARAMETER = re.compile(r"\{([^}]+)\}")

PARAMETERS: Final[dict[str, dict[str, Any]]] = {
    "runId": {
        "in": "path",
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,80}$"},
        "description": "The run (by default the Step Functions execution name).",
    },
    "nodeId": {
        "in": "path",
        "schema": {"type": "string", "minLength": 1, "maxLength": 80},
        "description": "The node (by default the state name); URL-encode it.",
    },
    "token": {
        "in": "path",
        "schema": {"type": "string", "minLength": 1},
        "description": "The signed link's token `ow2.<alg>.<kid>.<payload>.<mac>`: the credential.",
    },
    "asset": {"in": "path", "schema": {"type": "string", "enum": sorted(ASSET_TYPES)}},
    "mode": {
        "in": "query",
        "schema": {"type": "string", "enum": ["updates", "debug"], "default": "updates"},
        "description": "updates: the durable events; debug: also votes, asks, deliveries.",
    },
    "after": {
        "in": "query",
        "schema": read_runs.AFTER.schema(),
        "description": "Events with a greater seq (the previous page's `next`).",
    },
    "limit": {"in": "query", "schema": read_runs.LIMIT.schema()},
    "status": {
        "in": "query",
        "schema": {"type": "string", "enum": ["pending", "resolved"], "default": "pending"},
        "description": "pending: what waits for the caller; resolved (with decidedBy=me): what they decided.",
    },
    "eligible": {
        "in": "query",
        "schema": {"type": "string", "enum": ["me", "any"], "default": "me"},
        "description": "me: the interrupts the caller may act on now; any (runs:read): every pending one "
        "of the tenant. Only with status=pending.",
    },
    "decidedBy": {
        "in": "query",
        "schema": {"type": "string", "enum": ["me"]},
        "description": "Required with status=resolved: the caller's own decisions (kept 30 days).",
    },
    "kind": {"in": "query", "schema": {"type": "string", "enum": list(INTERRUPT_KINDS)}},
    "filterRunId": {
        "name": "runId",
        "in": "query",
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,80}$"},
        "description": "Only this run's interrupts.",
    },
    "pageLimit": {
        "name": "limit",
        "in": "query",
        "schema": list_interrupts.LIMIT.schema(),
    },
    "cursor": {
        "in": "query",
        "schema": {"type": "string", "minLength": 1, "maxLength": 2048, "pattern": "^[A-Za-z0-9_-]+$"},
        "description": "The previous answer's `next`, for the same caller and filter (it is MACed: any "
        "other is 400 validation_error).",
    },
    "source": {
        "in": "path",
        "schema": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]{0,62}$"},
        "description": "The webhook source's name (docs/webhooks.md).",
    },
    "eventSource": {
        "name": "source",
        "in": "query",
        "schema": {"type": "string", "minLength": 1},
        "description": "The webhook source whose kept events to list.",
    },
    "slackTenant": {
        "name": "tenant",
        "in": "query",
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,64}$", "default": "default"},
        "description": "Whose Slack app signed the request: part of the Request URL you give that app.",
    },
    "eventsLimit": {
        "name": "limit",
        "in": "query",
        "schema": read_webhook_events.LIMIT.schema(),
        "description": "At most this many events.",
    },
    "eventStatus": {
        "name": "status",
        "in": "query",
        "schema": {"type": "string", "enum": ["unmatched", "matched"]},
        "description": "unmatched: kept for a wait yet to come; matched: resolved a wait.",
    },
    **SUBSCRIPTION_PARAMETERS,
}
HEADERS: Final[dict[str, dict[str, Any]]] = {
    "Idempotent-Replayed": {
        "description": "`true` on an answer replayed under its Idempotency-Key.",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Cache-Control": {
        "description": "`no-store` on anything that names a token or a run's state.",
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "On 503 `unavailable`: seconds to wait before sending the same request again.",
        "schema": {"type": "string"},
    },
    "Referrer-Policy": {"schema": {"type": "string", "enum": ["no-referrer"]}},
    "X-Content-Type-Options": {"schema": {"type": "string", "enum": ["nosniff"]}},
    "Vary": {"schema": {"type": "string"}},
    "Content-Security-Policy": {"schema": {"type": "string"}},
    "Waitgate-Interrupt-Id": {
        "description": "The interrupt the link resolves.",
        "schema": {"type": "string"},
    },
    "Waitgate-Run-Id": {"schema": {"type": "string"}},
    "WWW-Authenticate": {
        "description": 'On /mcp\'s 401: `Bearer error=..., resource_metadata="<the metadata URL>"`.',
        "schema": {"type": "string"},
    },
    "Waitgate-Node-Id": {"schema": {"type": "string"}},
    "Waitgate-Status": {"description": "The interrupt's status.", "schema": {"type": "string"}},
    "Waitgate-Link-Expires-At": {
        "description": "Until when the link works (RFC 3339 UTC).",
        "schema": {"type": "string"},
    },
}


def build_document() -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for operation in OPERATIONS:
        paths.setdefault(operation.path, {})[operation.method] = _operation(operation)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": TITLE,
            "version": API_VERSION,
            "summary": "Where an automated run waits for something outside itself (interrupt v2.1).",
            "description": "Every 4xx/5xx is RFC 9457 problem+json with `type`, `title`, `status`, "
            "`detail` and `code`. Bodies are closed (an unknown member is 400) and at most 256 KB (413).",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": component_schemas(),
            "parameters": {
                IDEMPOTENCY_KEY: {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": False,
                    "description": "1..255 printable ASCII characters, scoped to (operation, caller, key) "
                    "and kept 24 h: a retry gets the first answer again, byte for byte.",
                    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
                }
            },
            "headers": HEADERS,
            "securitySchemes": {
                BEARER: {
                    "type": "http",
                    "scheme": "bearer",
                    "bearerFormat": "JWT",
                    "description": "A JWT of the configured issuer and audience; each operation names "
                    "the scope it needs (approvals:respond, interrupts:mint, runs:read).",
                }
            },
        },
    }


def _operation(operation: Operation) -> dict[str, Any]:
    described: dict[str, Any] = {
        "operationId": operation.operation_id,
        "summary": operation.summary,
        "tags": list(operation.tags),
        "parameters": _parameters(operation),
        "responses": {str(reply.status): _response(reply) for reply in operation.replies},
        "security": [{BEARER: [scope]} for scope in operation.scopes],
    }
    if "{token}" in operation.path:
        described["x-waitgate-credential"] = "the signed token in the path (no bearer JWT)"
    if operation.body:
        described["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": ref(operation.body)}},
        }
    if operation.form:
        body = described.setdefault("requestBody", {"required": True, "content": {}})
        body["content"][FORM] = {"schema": ref(operation.form)}
    if operation.credential:
        described["x-waitgate-credential"] = operation.credential
    return described


def _parameters(operation: Operation) -> list[dict[str, Any]]:
    names = [*_PATH_PARAMETER.findall(operation.path), *operation.query]
    parameters = [
        {"name": name, "required": PARAMETERS[name]["in"] == "path" or name in operation.required_query}
        | PARAMETERS[name]
        for name in names
    ]  # a parameter spec may name itself ("limit" of one operation, "limit" of another)
    if operation.keyed:
        parameters.append({"$ref": f"#/components/parameters/{IDEMPOTENCY_KEY}"})
    return parameters


def _response(reply: Reply) -> dict[str, Any]:
    described: dict[str, Any] = {"description": reply.description}
    if reply.headers:
        described["headers"] = {
            name: {**HEADERS[name], "required": True}
            if name in reply.required
            else {"$ref": f"#/components/headers/{name}"}
            for name in reply.headers
        }
    if reply.media:
        described["content"] = {media: _content(media, reply.schema) for media in reply.media}
    return described


def _content(media: str, schema: str | None) -> dict[str, Any]:
    if media == PROBLEM or (media == "application/json" and schema):
        return {"schema": ref(schema or "Problem")}
    if media == "application/json":
        return {"schema": {"type": "object"}}
    return {"schema": {"type": "string"}}
