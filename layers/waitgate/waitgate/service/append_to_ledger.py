"""appendToLedger: one decision fact (a run event the table stream brought) appended to its tenant's
hash chain, and the new head signed (docs/ledger.md).

Serial per tenant: the append is conditioned on the head that was read; of two appenders one wins,
the other re-reads the head and builds its entry after the winner's (run/optimistic). Exactly once:
the append carries the source event's id; a redelivered record (a stream retry, a batch bisected)
finds it appended and writes nothing. The policy in force is read from the node's interrupt, when it
is still the one the event is about (one consistent read).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from waitgate.ledger.chain import Head, head_after, head_to_sign, next_entry, signed_message
from waitgate.ledger.entries import facts_of, is_ledgered, source_id
from waitgate.ledger.ports import Ledger, LedgerSigner
from waitgate.ports import Clock, InterruptStore
from waitgate.run.clock import rfc3339
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import JSONObject, RunEvent, RunRef


@dataclass(frozen=True)
class LedgerDependencies:
    ledger: Ledger
    signer: LedgerSigner
    store: InterruptStore
    clock: Clock


def append_to_ledger(run: RunRef, event: RunEvent, deps: LedgerDependencies) -> bool:
    """True when the event was appended now; False when it is not ledgered or was appended already."""
    if not is_ledgered(event.type):
        return False
    facts = facts_of(
        event.type, event.time, run.run_id, event.node_id, event.payload, _interrupt(run, event, deps)
    )
    source = source_id(run.run_id, event.seq)

    def attempt() -> bool:
        head, _signed = deps.ledger.head(run.tenant_id)
        entry = next_entry(head, source, facts)
        return deps.ledger.append(entry, signed_head(head_after(entry), deps), head.seq)

    return retry_on_conflict(attempt, "ledger's head")


def signed_head(head: Head, deps: LedgerDependencies) -> JSONObject:
    unsigned = head_to_sign(head, deps.signer.key_id, rfc3339(deps.clock.now()))
    signature = deps.signer.sign(signed_message(unsigned))
    return {**unsigned, "signature": base64.b64encode(signature).decode("ascii")}


def _interrupt(run: RunRef, event: RunEvent, deps: LedgerDependencies) -> dict[str, Any] | None:
    """The node's interrupt as {interruptId, kind, payload}, when it is the one the event is about."""
    if event.node_id is None or event.type.startswith("agent."):
        return None
    record = deps.store.load(run, event.node_id).interrupt
    if record is None:
        return None
    named = event.payload.get("interruptId")
    same = record.interrupt_id == named if named else record.key == event.payload.get("key")
    if not same:
        return None
    return {"interruptId": record.interrupt_id, "kind": record.kind, "payload": record.payload}
