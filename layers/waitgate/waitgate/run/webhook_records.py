"""What webhooks in keep (docs/webhooks.md): the pending waits of the correlation index and the
verified events kept until they match a wait or expire."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from waitgate.run.records import ExternalEventRef, JSONObject, RunRef


@dataclass(frozen=True)
class WaitingInterrupt:
    """An entry of the correlation index: a pending external-event interrupt awaiting one correlation."""

    run: RunRef
    node_id: str
    interrupt_id: str
    requested_at: str


@dataclass(frozen=True)
class KeptEvent:
    """A verified webhook event, kept until `expires_at_epoch` (docs/webhooks.md): `unmatched` until it
    resolved a wait, then `matched` (a `match_many` source's event goes on matching later waits)."""

    ref: ExternalEventRef
    tenant_id: str
    event_type: str
    delivery_id: str
    received_at: str
    expires_at_epoch: int
    data: JSONObject
    resume_value: Any
    status: Literal["unmatched", "matched"] = "unmatched"
    match_many: bool = False
    matched: JSONObject | None = None  # the last wait it resolved: runId, nodeId, interruptId, at
    refusal: JSONObject | None = None  # the last resolve it could not make (a resumeSchema refused it)

    @property
    def usable(self) -> bool:
        """It may still resolve a wait (expiry aside)."""
        return self.status == "unmatched" or self.match_many

    def to_json(self) -> JSONObject:
        listed: JSONObject = {
            "source": self.ref.source,
            "eventId": self.ref.event_id,
            "deliveryId": self.delivery_id,
            "type": self.event_type,
            "status": self.status,
            "receivedAt": self.received_at,
            "expiresAt": _epoch_text(self.expires_at_epoch),
            "data": self.data,
        }
        if self.matched is not None:
            listed["matched"] = self.matched
        if self.refusal is not None:
            listed["refusal"] = self.refusal
        return listed


def _epoch_text(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
