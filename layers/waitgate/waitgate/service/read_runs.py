"""Reading a run: its snapshot (getRun) and its event log (listRunEvents). Reads only, never writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from waitgate.errors import NotFoundError, ValidationFailedError
from waitgate.ports import InterruptStore
from waitgate.run.query_integers import IntegerParameter
from waitgate.run.records import EventMode, RunRef

StreamMode = Literal["updates", "debug"]
MODES_OF_STREAM: Final[dict[str, frozenset[EventMode]]] = {
    "updates": frozenset({"updates"}),  # the durable events
    "debug": frozenset({"updates", "debug"}),  # and the rest: votes, asks, deliveries
}
DEFAULT_PAGE: Final = 100
MAX_PAGE: Final = 1000
AFTER: Final = IntegerParameter("after", minimum=0, maximum=999_999_999_999, default=0)
LIMIT: Final = IntegerParameter("limit", minimum=1, maximum=MAX_PAGE, default=DEFAULT_PAGE)


@dataclass(frozen=True)
class EventsQuery:
    run: RunRef
    mode: StreamMode = "updates"
    after: int = 0
    limit: int = DEFAULT_PAGE

    @classmethod
    def parse(cls, run: RunRef, mode: str | None, after: str | None, limit: str | None) -> EventsQuery:
        """From query-string text; anything malformed is 400 validation_error naming the parameter."""
        chosen = mode or "updates"
        if chosen not in MODES_OF_STREAM:
            raise ValidationFailedError("mode must be updates or debug.", path="mode")
        first, size = AFTER.parse(after), LIMIT.parse(limit)
        return cls(run=run, mode="debug" if chosen == "debug" else "updates", after=first, limit=size)


def get_run(run: RunRef, store: InterruptStore) -> dict[str, Any]:
    """The RunSnapshot {runId, tenantId, status, currentNodeId?, pendingInterrupt?}."""
    snapshot = store.snapshot(run)
    if snapshot is None:
        raise NotFoundError("No such run or node.")
    body: dict[str, Any] = {"runId": run.run_id, "tenantId": run.tenant_id, "status": snapshot.status}
    if snapshot.current_node_id is None:
        return body
    body["currentNodeId"] = snapshot.current_node_id
    interrupt = store.load(run, snapshot.current_node_id).interrupt
    if interrupt is not None and interrupt.status == "pending":
        body["pendingInterrupt"] = {
            "interruptId": interrupt.interrupt_id,
            "nodeId": interrupt.node_id,
            "kind": interrupt.kind,
        }
    return body


def list_events(query: EventsQuery, store: InterruptStore) -> dict[str, Any]:
    """{events: [...], next?}: one page; `next` is the `after` of the following page."""
    if store.snapshot(query.run) is None:
        raise NotFoundError("No such run or node.")
    page = store.events(query.run, query.after, query.limit, MODES_OF_STREAM[query.mode])
    body: dict[str, Any] = {"events": [event.to_json() for event in page.events]}
    if page.next is not None:
        body["next"] = page.next
    return body
