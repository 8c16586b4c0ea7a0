"""What operators read of a webhook source (`GET /webhooks/events`, `waitgate webhooks events`): the
events it delivered that are still kept, newest first (docs/webhooks.md, "Operators")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from waitgate.errors import ValidationFailedError
from waitgate.run.identity import Caller
from waitgate.run.query_integers import IntegerParameter
from waitgate.service.receive_webhook import WebhookDependencies

STATUSES = frozenset({"unmatched", "matched"})
MAX_LISTED = 100
LIMIT: Final = IntegerParameter("limit", minimum=1, maximum=MAX_LISTED, default=MAX_LISTED)
MAX_READ = 1000  # kept events of one source read for one listing (they expire with the source's TTL)


@dataclass(frozen=True)
class EventsQuery:
    """`GET /webhooks/events?source=&status=&limit=`: the caller's tenant's sources only."""

    caller: Caller
    source: str
    status: str | None = None
    limit: int = MAX_LISTED

    @classmethod
    def parse(cls, caller: Caller, source: str | None, status: str | None, limit: str | None) -> EventsQuery:
        if not source:
            raise ValidationFailedError("Name the source: ?source=<name>.", path="source")
        if status is not None and status not in STATUSES:
            raise ValidationFailedError("status is unmatched or matched.", path="status")
        return cls(caller, source, status, LIMIT.parse(limit))


def list_events(query: EventsQuery, deps: WebhookDependencies) -> dict[str, Any]:
    """The source's kept events, newest first (those past their TTL left out); another tenant's
    source, or none, lists nothing."""
    configured = deps.sources.source(query.source)
    if configured is None or configured.source.tenant_id != query.caller.tenant_id:
        return {"source": query.source, "events": []}
    now = int(deps.matching.clock.now().timestamp())
    events = [
        event.to_json()
        for event in deps.matching.events.listed(query.source, MAX_READ)
        if event.expires_at_epoch > now and (query.status is None or event.status == query.status)
    ]
    return {"source": query.source, "events": events[: query.limit]}
