"""Scopes of a bearer JWT are read as OAuth and API Gateway's JWT authorizer read them."""

from __future__ import annotations

from typing import Any

import pytest

from waitgate.errors import ForbiddenError
from waitgate.http.auth import caller_from_jwt, scopes_of


def event_with(claims: dict[str, Any]) -> dict[str, Any]:
    return {"requestContext": {"authorizer": {"jwt": {"claims": {"sub": "alice", **claims}}}}}


@pytest.mark.parametrize(
    ("claims", "expected"),
    [
        ({"scope": "runs:read approvals:respond"}, {"runs:read", "approvals:respond"}),
        ({"scope": "  runs:read\tapprovals:respond  "}, {"runs:read", "approvals:respond"}),
        ({"scope": "runs:read,approvals:respond"}, {"runs:read,approvals:respond"}),
        ({"scp": ["runs:read", "approvals:respond"]}, {"runs:read", "approvals:respond"}),
        ({"scp": "[runs:read approvals:respond]"}, {"runs:read", "approvals:respond"}),
        ({"scp": "[runs:read,approvals:respond]"}, {"runs:read,approvals:respond"}),
        ({}, set()),
    ],
    ids=["spaces", "whitespace", "comma is one token", "scp list", "gateway list", "gateway comma", "none"],
)
def test_scopes_are_space_delimited_tokens(claims: dict[str, Any], expected: set[str]) -> None:
    # Given the claims the authorizer passed on
    # When the handler reads the granted scopes
    # Then each space-delimited token is one scope; a comma never splits one
    assert scopes_of(claims) == expected


@pytest.mark.parametrize(
    ("scope", "required"),
    [
        ("runs:read,approvals:respond", "approvals:respond"),
        ("approvals:respond,interrupts:mint", "interrupts:mint"),
        ("approvals:respond,interrupts:mint", "approvals:respond"),
    ],
)
def test_a_comma_joined_scope_grants_neither_part(scope: str, required: str) -> None:
    # Given a JWT whose scope is one comma-joined token
    # When a route that needs one of its parts checks it
    # Then 403 forbidden names the missing scope
    with pytest.raises(ForbiddenError) as refused:
        caller_from_jwt(event_with({"scope": scope}), required_scope=required, tenant_claim="tenant")
    assert required in refused.value.detail


@pytest.mark.parametrize("sub", ["webhook:stripe", "webhook:demo-standard", "token:01JTOKENID"])
def test_a_sub_in_waitgates_own_principal_namespaces_is_refused(sub: str) -> None:
    # Given a valid JWT whose sub is a principal waitgate decides as itself
    event = event_with({"sub": sub, "scope": "approvals:respond runs:read"})
    # When the handler reads the caller / Then 403 forbidden: that person could read its decisions
    with pytest.raises(ForbiddenError):
        caller_from_jwt(event, required_scope="runs:read", tenant_claim="tenant")


@pytest.mark.parametrize("sub", ["alice", "webhooks:x", "Webhook-stripe", "tokens", "user:webhook:x"])
def test_a_sub_outside_them_is_a_caller(sub: str) -> None:
    event = event_with({"sub": sub, "scope": "runs:read"})
    assert caller_from_jwt(event, required_scope="runs:read", tenant_claim="tenant").principal == sub
