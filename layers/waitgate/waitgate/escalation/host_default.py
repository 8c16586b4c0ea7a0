"""The host's default escalation policy per tenant (template parameter EscalationDefaults).

`{"<tenantId>": <policy>, "*": <policy>}`: a tenant's own entry, else `*`, applies to every interrupt
whose Task sends no `escalation` member (an explicit `{}` opts out). The defaults are checked once,
at cold start; a default may remind and add approvers but never decides (`onDeadline` stays "fail":
a default decision depends on the interrupt's kind, so only the workflow can give one). Fitted to each
interrupt: steps at or after its deadline are dropped (they could never fire), and so is
`addApprovers` on a kind without approvers (a step left with nothing to do goes with it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.escalation.policy import (
    ELIGIBILITY_KINDS,
    EscalationPolicy,
    Step,
    check_policy,
    policy_from_json,
    to_json,
)

ANY_TENANT = "*"
HostDefaults = Mapping[str, Mapping[str, Any]]


def check_host_defaults(raw: Any) -> dict[str, dict[str, Any]]:
    """The defaults as configured; ValueError naming the tenant and the member otherwise."""
    if not isinstance(raw, Mapping) or not all(isinstance(name, str) and name for name in raw):
        raise ValueError("EscalationDefaults must be a JSON object of tenantId (or '*') -> policy")
    checked: dict[str, dict[str, Any]] = {}
    for tenant, document in raw.items():
        if isinstance(document, Mapping) and document.get("onDeadline", "fail") != "fail":
            raise ValueError(f"EscalationDefaults[{tenant!r}].onDeadline: a host default never decides")
        try:
            policy = check_policy(document)
        except InterruptPayloadInvalidError as error:
            raise ValueError(f"EscalationDefaults[{tenant!r}]: {error.detail}") from None
        checked[tenant] = to_json(policy)
    return checked


def default_for(
    defaults: HostDefaults, tenant_id: str, *, kind: str, timeout_ms: int | None
) -> EscalationPolicy | None:
    """The tenant's default fitted to this interrupt; None when there is none (or nothing is left)."""
    document = defaults.get(tenant_id, defaults.get(ANY_TENANT))
    if document is None:
        return None
    kept = [
        fitted
        for step in policy_from_json(document).steps
        if timeout_ms is None or step.after_ms < timeout_ms
        if (fitted := _fit(step, kind)) is not None
    ]
    policy = policy_from_json(to_json(EscalationPolicy(tuple(kept))))  # numbered as stored
    return None if policy.is_empty else policy


def _fit(step: Step, kind: str) -> Step | None:
    if step.add_approvers is None or kind in ELIGIBILITY_KINDS:
        return step
    return Step(step.index, step.after_ms, remind=True) if step.remind else None
