"""Separation of duties: the requester does not decide their own approval, unless allowed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from waitgate.approval.eligibility import EligibilityRecord
from waitgate.approval.separation_of_duties import TenantSettings, check_not_own_request
from waitgate.errors import ForbiddenError, SelfApprovalRefusedError
from waitgate.run.problem_details import problem_for
from waitgate.sdk.api_errors import ERROR_BY_CODE, Forbidden

AT = "2026-12-03T10:00:00.000Z"


def voter(principal: str, matched_by: str = "list") -> EligibilityRecord:
    return EligibilityRecord(principal=principal, matched_by=matched_by, resolved_at=AT)


@pytest.mark.parametrize("matched_by", ["list", "group:ops", "role:cfo", "escalation:1", "open", "override"])
def test_the_requester_is_refused_however_they_are_eligible(matched_by: str) -> None:
    with pytest.raises(SelfApprovalRefusedError) as refused:
        check_not_own_request({"requestedBy": "carol"}, voter("carol", matched_by))
    assert (refused.value.status, refused.value.code) == (403, "self_approval_refused")
    assert isinstance(refused.value, ForbiddenError)


def test_another_principal_or_an_approval_without_a_requester_is_not_concerned() -> None:
    check_not_own_request({"requestedBy": "carol"}, voter("alice"))
    check_not_own_request({}, voter("carol"))


@pytest.mark.parametrize(
    ("data", "matched_by", "allowed"),
    [
        ({"allowSelfApproval": True}, "list", True),
        ({"allowSelfApproval": True}, "role:cfo", True),
        ({"allowSelfApproval": True}, "override", False),  # an override is not the interrupt's to relax
        ({"allowSelfApproval": False}, "list", False),
        ({"allowSelfApproval": "true"}, "list", False),  # only the JSON true allows (fails closed)
    ],
)
def test_the_interrupt_may_allow_it_but_never_for_an_override(
    data: dict[str, Any], matched_by: str, allowed: bool
) -> None:
    data = {"requestedBy": "carol"} | data
    if allowed:
        check_not_own_request(data, voter("carol", matched_by))
    else:
        with pytest.raises(SelfApprovalRefusedError):
            check_not_own_request(data, voter("carol", matched_by))


@pytest.mark.parametrize("matched_by", ["list", "group:ops", "escalation:1", "open", "override"])
def test_a_tenant_that_allows_it_lets_the_requester_vote_override_principals_included(
    matched_by: str,
) -> None:
    allowing = TenantSettings(allow_self_approval=True)
    check_not_own_request({"requestedBy": "carol"}, voter("carol", matched_by), allowing)
    with pytest.raises(SelfApprovalRefusedError):  # the default tenant setting allows nothing
        check_not_own_request({"requestedBy": "carol"}, voter("carol", matched_by), TenantSettings())


@pytest.mark.parametrize(
    ("data", "tenant"),
    [
        ({"allowSelfApproval": True}, TenantSettings()),
        ({}, TenantSettings(allow_self_approval=True)),
        ({"allowSelfApproval": True}, TenantSettings(allow_self_approval=True)),
    ],
)
def test_a_delegate_deciding_for_the_requester_is_refused_whatever_is_allowed(
    data: dict[str, Any], tenant: TenantSettings
) -> None:
    with pytest.raises(SelfApprovalRefusedError):
        check_not_own_request({"requestedBy": "carol"} | data, voter("bob", "delegate-of:carol"), tenant)
    # while bob deciding for someone else is not concerned
    check_not_own_request({"requestedBy": "carol"}, voter("bob", "delegate-of:alice"))


def test_the_sdk_reads_the_code_as_a_forbidden_of_its_own() -> None:
    assert issubclass(ERROR_BY_CODE["self_approval_refused"], Forbidden)


def test_the_refusal_is_problem_json_with_its_code() -> None:
    status, body = problem_for(SelfApprovalRefusedError("The requester of this approval cannot decide it."))
    assert (status, json.loads(body)["code"]) == (403, "self_approval_refused")


def test_a_slack_click_of_the_requester_is_told_why() -> None:
    from waitgate.channels.slack_replies import refusal_reply

    reply = refusal_reply(SelfApprovalRefusedError("The requester of this approval cannot decide it."))
    assert "someone else must decide it" in reply


def test_the_page_of_the_refusal_says_someone_else_must_decide() -> None:
    from waitgate.page.render import error_page

    page = error_page(403, "self_approval_refused", "The requester of this approval cannot decide it.")
    assert "Someone else must decide this" in page.html and "You asked for it" in page.html
