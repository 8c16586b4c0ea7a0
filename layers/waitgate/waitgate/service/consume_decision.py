"""Consume an action-bound decision once (docs/approvals.md, "Consume once").

The executing side, about to do the approved action, spends the decision: the first consume of an
accepted, action-bound decision gets its receipt (201); any later one is 409 decision_already_consumed,
so a retried step cannot do the approved action twice. Only a decision of this run's node that
accepted exactly the named fingerprint can be consumed: anything else is 404 (nothing to spend).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from waitgate.errors import DecisionAlreadyConsumedError, NotFoundError, ValidationFailedError
from waitgate.ports import Clock, ConsumedDecisions, InterruptStore
from waitgate.run.clock import rfc3339
from waitgate.run.identity import Caller
from waitgate.run.records import JSONObject, RunRef

NOTHING_TO_CONSUME = "No accepted decision of this interrupt binds that action fingerprint."
MEMBERS = frozenset({"interruptId", "actionFingerprint"})


@dataclass(frozen=True)
class ConsumeDependencies:
    store: InterruptStore
    consumed: ConsumedDecisions
    clock: Clock


def parse_consume_request(body: Any) -> tuple[str, str]:
    """`{interruptId, actionFingerprint}` (closed), both non-empty strings."""
    if not isinstance(body, dict):
        raise ValidationFailedError("body: must be a JSON object", path="body")
    for name in sorted(set(body) - MEMBERS):
        raise ValidationFailedError(f"{name}: is not a member of a consume request", path=name)
    for name in sorted(MEMBERS):
        if not isinstance(body.get(name), str) or not body[name]:
            raise ValidationFailedError(f"{name}: must be a non-empty string", path=name)
    return body["interruptId"], body["actionFingerprint"]


def consume(
    run: RunRef,
    node_id: str,
    body: Any,
    caller: Caller,
    deps: ConsumeDependencies,
    request_key: str | None = None,
) -> JSONObject:
    """The receipt of the first consume (again for a retry under its Idempotency-Key);
    DecisionAlreadyConsumedError for any other later one."""
    interrupt_id, fingerprint = parse_consume_request(body)
    record = deps.store.load(run, node_id).interrupt
    decision = record.resume_value if record is not None and record.status == "resolved" else None
    if (
        record is None
        or record.interrupt_id != interrupt_id
        or not isinstance(decision, dict)
        or decision.get("action") not in ("accept", "edit-accept")
        or decision.get("actionFingerprint") != fingerprint
    ):
        raise NotFoundError(NOTHING_TO_CONSUME)
    receipt: JSONObject = {
        "runId": run.run_id,
        "nodeId": node_id,
        "interruptId": interrupt_id,
        "actionFingerprint": fingerprint,
        "consumedBy": caller.principal,
        "consumedAt": rfc3339(deps.clock.now()),
    }
    request = None if request_key is None else f"{caller.idempotency_identity}\n{request_key}"
    kept = deps.consumed.consume_once(run, interrupt_id, receipt, request)
    if kept is None:
        raise DecisionAlreadyConsumedError(
            "This decision was consumed before: its action must not run again."
        )
    return kept
