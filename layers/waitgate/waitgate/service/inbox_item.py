"""getInboxItem: one pending interrupt, for the signed-in inbox page to open in place.

The same questions as a resolve asks before it reads the answer: the interrupt waits (404, 409, as
`run.answerable` says), and the caller may act on it (`run.inbox_items`, the vote's rules and
directory). A caller who may not is refused (403), unless they hold `runs:read`: then they see it
without a form, as `eligible=any` lists it. Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass

from waitgate.approval import Memberships
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.errors import ForbiddenError
from waitgate.ports import Clock, Directory, InterruptStore
from waitgate.run import inbox_items
from waitgate.run.answerable import pending_record
from waitgate.run.identity import Caller
from waitgate.run.inbox_summary import entry_of
from waitgate.run.records import InterruptRecord, RunRef
from waitgate.service._delegates import delegated_matches


@dataclass(frozen=True)
class OpenedItem:
    record: InterruptRecord
    matched_by: str | None  # None: the caller sees it (runs:read) but may not act on it
    may_act: bool  # eligible, and the token holds approvals:respond


def open_item(
    run: RunRef,
    node_id: str,
    caller: Caller,
    store: InterruptStore,
    directory: Directory,
    approval: ApprovalConfig,
    clock: Clock,
) -> OpenedItem:
    record = pending_record(store.load(run, node_id), clock)
    now = clock.now()
    entry = entry_of(record)  # the node item's own terms, as the listing checks them
    refs = inbox_items.refs_of_page((entry,), caller.principal, approval)
    memberships = Memberships()
    if refs.groups or refs.roles:
        memberships = directory.memberships(run.tenant_id, caller.principal, refs.groups, refs.roles)
    matched = inbox_items.matched_by(entry, caller.principal, memberships, approval, now)
    if matched is None:  # as someone's delegate, while the delegation holds
        matched = delegated_matches((entry,), caller, directory, approval, now).get(entry.interrupt_id)
    if matched is None and "runs:read" not in caller.scopes:
        raise ForbiddenError("The principal is not an eligible approver for this interrupt.")
    return OpenedItem(record, matched, matched is not None and "approvals:respond" in caller.scopes)
