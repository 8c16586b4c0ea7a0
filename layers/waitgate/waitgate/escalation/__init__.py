"""Escalation rules, pure: the policy beside an interrupt, and the host's default per tenant."""

from waitgate.escalation.host_default import ANY_TENANT, HostDefaults, check_host_defaults, default_for
from waitgate.escalation.policy import (
    ELIGIBILITY_KINDS,
    EscalationPolicy,
    Step,
    check_policy,
    parse_policy,
    policy_from_json,
    to_json,
)

__all__ = [
    "ANY_TENANT",
    "ELIGIBILITY_KINDS",
    "EscalationPolicy",
    "HostDefaults",
    "Step",
    "check_host_defaults",
    "check_policy",
    "default_for",
    "parse_policy",
    "policy_from_json",
    "to_json",
]
