"""The records the store persists for a run: its snapshot, its interrupts and its events."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from waitgate.errors import NotFoundError, ValidationFailedError
from waitgate.run.problem_details import Problem

JSONObject = dict[str, Any]

RunStatus = Literal[
    "running",
    "waiting-approval",
    "waiting-input",
    "waiting-external",
    "completed",
    "cancelled",
    "failed",
]
TERMINAL_RUN_STATUSES: frozenset[str] = frozenset({"completed", "cancelled", "failed"})

InterruptStatus = Literal["pending", "resolved", "expired", "cancelled"]
EventMode = Literal["updates", "debug"]

_RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")
_TENANT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# a run id waitgate keeps for itself: the tenant's directory log (`RUN#<tenant>#directory`, its
# delegations and settings as events, docs/approvals.md) lives where a run of that id would
DIRECTORY_LOG = "directory"
RESERVED_RUN_IDS: frozenset[str] = frozenset({DIRECTORY_LOG})
DEFAULT_TENANT = "default"


@dataclass(frozen=True)
class RunRef:
    """Which run: a tenant's run id. Another tenant's ref names a different run."""

    tenant_id: str
    run_id: str

    @classmethod
    def parse(cls, tenant_id: str, run_id: str) -> RunRef:
        """A ref from outside input; a malformed id cannot name a run, so it is not found."""
        if not _TENANT_ID.fullmatch(tenant_id):
            raise ValidationFailedError("tenantId must match [A-Za-z0-9_.-]{1,64}.")
        if not _RUN_ID.fullmatch(run_id):
            raise NotFoundError("No such run or node.")
        if run_id in RESERVED_RUN_IDS:
            raise NotFoundError(f"No run is named {run_id!r}: waitgate keeps that id for itself.")
        return cls(tenant_id, run_id)


def check_node_id(node_id: str) -> str:
    """nodeId is 1..80 characters (a state name); anything else cannot name a node."""
    if not 1 <= len(node_id) <= 80:
        raise NotFoundError("No such run or node.")
    return node_id


@dataclass(frozen=True)
class RunSnapshot:
    run: RunRef
    status: RunStatus
    next_seq: int
    current_node_id: str | None = None
    pending_interrupt_id: str | None = None
    version_seen: int | None = None  # next_seq as read; None for a run the store has not seen

    @classmethod
    def new(cls, run: RunRef) -> RunSnapshot:
        return cls(run=run, status="running", next_seq=1)

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_RUN_STATUSES


@dataclass(frozen=True)
class InterruptRecord:
    """The current interrupt at one node of a run, with everything needed to resolve it."""

    run: RunRef
    node_id: str
    interrupt_id: str
    kind: str
    key: str
    payload: JSONObject
    task_token: str
    requested_at: str
    status: InterruptStatus = "pending"
    version: int = 1
    deadline: str | None = None
    resume_value: JSONObject | None = None
    resolved_at: str | None = None
    votes: tuple[JSONObject, ...] = ()
    asks: tuple[JSONObject, ...] = field(default=())
    delivered_at: str | None = None  # when the workflow was answered (or found gone); docs/durability.md
    delivery_outcome: str | None = None  # delivered | task-gone | result-too-large
    escalation: JSONObject | None = None  # the policy in force (docs/escalation.md), as stored
    escalated: tuple[int, ...] = ()  # the steps of that policy that fired, in firing order
    notify: JSONObject | None = None  # who the Task input asks (waitgate.run.asked), as checked
    # The reconciler (docs/durability.md): when its recipients were told, when it is looked at next
    # while pending, and the execution it suspends (to ask its engine whether it still runs).
    noticed_at: str | None = None
    check_at: str | None = None
    execution_arn: str | None = None

    @property
    def data(self) -> JSONObject:
        data: JSONObject = self.payload.get("data", {})
        return data


@dataclass(frozen=True)
class RunEvent:
    seq: int
    type: str
    time: str
    payload: JSONObject
    node_id: str | None = None
    mode: EventMode = "updates"

    def to_json(self) -> JSONObject:
        event: JSONObject = {"seq": self.seq, "type": self.type, "time": self.time}
        if self.node_id is not None:
            event["nodeId"] = self.node_id
        event["payload"] = self.payload
        return event


@dataclass(frozen=True)
class IdempotencyRef:
    """A caller's Idempotency-Key for one operation, and what the request asked.

    The scope is (operation, caller identity, key) — not the run: two callers never collide, and one
    caller reusing a key on another run with another body gets 422. The fingerprint covers the path
    (run and node) and the body, so a replay only ever answers the same request.
    """

    operation: str
    caller: str
    key: str
    fingerprint: str  # a digest of the request's meaning: path parameters and canonical body

    @property
    def record_id(self) -> str:
        scope = json.dumps([self.operation, self.caller, self.key], separators=(",", ":"))
        return hashlib.sha256(scope.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StoredAnswer:
    """The answer first given to a keyed request, kept byte for byte for its replays, with what it
    means (`answers.Answer`: a refusal's problem, a success's value), so a replay means it too."""

    fingerprint: str
    status: int
    body: str
    content_type: str
    expires_at_epoch: int  # DynamoDB TTL: 24 h after the first answer
    problem: Problem | None = None
    value: Any = None


@dataclass(frozen=True)
class ReentryKey:
    """The `KEY#<key>` record of a run: the interrupt that introduced the key and, once it ended, how.

    Written in the same transaction as the events that change it, so it is a projection of the event
    log that can never disagree with it (docs/durability.md)."""

    run: RunRef
    key: str
    interrupt_id: str
    node_id: str
    status: InterruptStatus = "pending"
    resume_value: Any = None


@dataclass(frozen=True)
class ExecutionLink:
    """Which run a Step Functions execution carries: its end names the execution, never the tenant."""

    execution_name: str
    run: RunRef
    execution_arn: str | None = None  # known when the Task passes $$.Execution.Id


@dataclass(frozen=True)
class RunView:
    """What one read returns for a use case: the snapshot and the node's current interrupt."""

    snapshot: RunSnapshot | None
    interrupt: InterruptRecord | None
    answer: StoredAnswer | None = None  # the keyed request's earlier answer, when asked for
    reentry: ReentryKey | None = None  # the re-entry key's record, when asked for


@dataclass(frozen=True)
class ConversationRef:
    """A conversation of a tenant: started once, exchanged on while open (conversation.* kinds)."""

    tenant_id: str
    conversation_id: str


@dataclass(frozen=True)
class ExecutionLinkRef:
    """The lookup from a workflow execution (by name) to the run it carries."""

    execution_name: str
    run: RunRef


@dataclass(frozen=True)
class ExternalEventRef:
    """A webhook event a source delivered, named by its source and its digest of the delivery id."""

    source: str
    event_id: str


GuardSubject = ConversationRef | ExecutionLinkRef | ExternalEventRef
ENDED_STATUSES = frozenset({"resolved", "expired"})  # an interrupt the workflow must be told about


@dataclass(frozen=True)
class GuardedItem:
    """A record outside the run's own, checked (and written, if `put`) in the run's transaction.

    `expect` None: the record must not exist; a mapping: it must exist with these string attributes.
    A guard that does not hold fails the whole change with GuardFailedError(label). Where the record
    lives is the store's business (the DynamoDB adapter's key layout).
    """

    subject: GuardSubject
    label: str
    expect: Mapping[str, str] | None = None
    put: Mapping[str, str] | None = None  # the item's attributes (besides its key); None: check only
    update: Mapping[str, str] | None = None  # attributes set on the existing item (with `expect`)


@dataclass(frozen=True)
class DecisionReceipt:
    """What one principal decided: a person's answer that resolved an interrupt (for an approval, each
    voter of the tally that decided it). Written in the resolution's own transaction, kept a while
    (`DECIDED_RETENTION_DAYS`), listed by `GET /interrupts?status=resolved&decidedBy=me` (docs/inbox.md)."""

    principal: str
    run: RunRef
    node_id: str
    interrupt_id: str
    kind: str
    title: str
    requested_at: str
    resolved_at: str
    action: str | None = None  # the decision's action (an approval's, or a resume value's `action`)
    vote: JSONObject | None = None  # the principal's own vote on an approval: {action, decidedAt, feedback?}


DECIDED_RETENTION_DAYS = 30


@dataclass(frozen=True)
class RunChange:
    """One atomic change to a run: all of it commits, or none (conditions on what was read)."""

    snapshot: RunSnapshot
    interrupt: InterruptRecord | None = None
    expected_interrupt_version: int | None = None  # None: the node item must not exist yet
    events: tuple[RunEvent, ...] = ()
    guarded: tuple[GuardedItem, ...] = ()
    answer: tuple[IdempotencyRef, StoredAnswer] | None = None  # committed with the change it answers
    reentry: ReentryKey | None = None  # written unless another interrupt holds the key
    receipts: tuple[DecisionReceipt, ...] = ()  # who decided a resolution (written with it)


@dataclass(frozen=True)
class EventPage:
    """Events of a run in seq order; `next` is the seq to read after, when there may be more."""

    events: tuple[RunEvent, ...]
    next: int | None = None


@dataclass(frozen=True)
class RecordProgress:
    """How far the stream's consumers got with one record across the mapping's retries
    (service/dispatch_stream): those done (or given up), each one's failed attempts, those failing now."""

    done: frozenset[str] = frozenset()
    attempts: Mapping[str, int] = field(default_factory=dict)
    failing: frozenset[str] = frozenset()
