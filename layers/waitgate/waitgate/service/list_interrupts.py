"""listInterrupts: what waits for the caller (`status=pending`), or what they decided
(`status=resolved&decidedBy=me`), a page at a time (docs/inbox.md).

One page is one Query on the store's inbox (the sparse index of pending interrupts, or the caller's
receipts), plus, for approvals that name groups or roles, one directory read for the page: its cost
does not depend on how many interrupts the table holds, resolved or not. The index holds a bounded
summary of each interrupt (`waitgate.run.inbox_summary`); the store reads whole, for the page, those it
holds no usable summary of, so the entries always carry an approval's terms whole. Eligibility is evaluated at
read time with the rules and the directory a vote meets (`run.inbox_items`), so a page may hold
fewer than `limit` items (even none) while `next` says there is more: follow `next` until it is absent.
`next` is the store's position sealed with the host's keyring for this tenant, principal and filter
(`tokens.cursors`): a cursor this host did not give, or gave another principal or filter, is 400.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from waitgate.approval import Memberships
from waitgate.approval.approver_config import ApprovalConfig, NoDirectory
from waitgate.errors import ForbiddenError, NotFoundError, ValidationFailedError
from waitgate.payloads.kinds import INTERRUPT_KINDS
from waitgate.ports import Clock, Directory, Inbox
from waitgate.run import inbox_items
from waitgate.run.identity import Caller
from waitgate.run.inbox_records import InboxFilter
from waitgate.run.query_integers import IntegerParameter
from waitgate.run.records import RunRef
from waitgate.service._delegates import delegated_matches
from waitgate.tokens.cursors import open_cursor, seal_cursor
from waitgate.tokens.keyring import KeySource

DEFAULT_LIMIT: Final = 50
MAX_LIMIT: Final = 100
LIMIT: Final = IntegerParameter("limit", minimum=1, maximum=MAX_LIMIT, default=DEFAULT_LIMIT)
READ_SCOPES: Final = ("approvals:respond", "runs:read")  # either lists what the caller may act on
ANY_SCOPE: Final = "runs:read"  # eligible=any: every pending interrupt of the tenant
MAX_CURSOR: Final = 2048
RUN_ID_RULE: Final = "runId must match [A-Za-z0-9_-]{1,80} and not be a reserved id (directory)."


@dataclass(frozen=True)
class InboxDependencies:
    inbox: Inbox
    clock: Clock
    keyring: KeySource  # seals and opens the page cursors
    directory: Directory = field(default_factory=NoDirectory)
    approval: ApprovalConfig = field(default_factory=ApprovalConfig)


@dataclass(frozen=True)
class InboxQuery:
    status: Literal["pending", "resolved"] = "pending"
    eligible: Literal["me", "any"] = "me"
    kind: str | None = None
    run_id: str | None = None
    limit: int = DEFAULT_LIMIT
    cursor: str | None = None

    @classmethod
    def parse(cls, parameters: dict[str, str | None], caller: Caller) -> InboxQuery:
        """From the query string; malformed is 400 naming the parameter, a missing scope 403."""
        status = parameters.get("status") or "pending"
        if status not in ("pending", "resolved"):
            raise ValidationFailedError("status must be pending or resolved.", path="status")
        eligible = parameters.get("eligible")
        decided_by = parameters.get("decidedBy")
        if status == "pending":
            if decided_by is not None:
                raise ValidationFailedError("decidedBy goes with status=resolved.", path="decidedBy")
            if eligible not in (None, "me", "any"):
                raise ValidationFailedError("eligible must be me or any.", path="eligible")
        else:
            if decided_by != "me":
                raise ValidationFailedError("status=resolved needs decidedBy=me.", path="decidedBy")
            if eligible is not None:
                raise ValidationFailedError("eligible goes with status=pending.", path="eligible")
        kind = parameters.get("kind")
        if kind is not None and kind not in INTERRUPT_KINDS:
            raise ValidationFailedError(f"kind must be one of {', '.join(INTERRUPT_KINDS)}.", path="kind")
        run_id = parameters.get("runId")
        if run_id is not None:
            try:
                RunRef.parse(caller.tenant_id, run_id)
            except NotFoundError as error:  # a malformed id names no run: here it is the parameter's fault
                raise ValidationFailedError(RUN_ID_RULE, path="runId") from error
        cursor = parameters.get("cursor")
        if cursor is not None and not 1 <= len(cursor) <= MAX_CURSOR:
            raise ValidationFailedError("cursor must be the `next` of an earlier page.", path="cursor")
        query = cls(
            status="resolved" if status == "resolved" else "pending",
            eligible="any" if eligible == "any" else "me",
            kind=kind,
            run_id=run_id,
            limit=LIMIT.parse(parameters.get("limit")),
            cursor=cursor,
        )
        query.check_scopes(caller)
        return query

    def cursor_context(self, caller: Caller) -> tuple[str, ...]:
        """Whose page and which listing a cursor is for: it opens for these alone."""
        return (
            caller.tenant_id,
            caller.principal,
            self.status,
            self.eligible,
            self.kind or "",
            self.run_id or "",
        )

    def check_scopes(self, caller: Caller) -> None:
        if self.eligible == "any" and ANY_SCOPE not in caller.scopes:
            raise ForbiddenError("eligible=any needs the scope runs:read.")
        if not set(READ_SCOPES) & caller.scopes:
            raise ForbiddenError("The bearer token lacks the scope approvals:respond or runs:read.")


def list_interrupts(query: InboxQuery, caller: Caller, deps: InboxDependencies) -> dict[str, Any]:
    """`{items: [...], next?}`: one page; pass `next` as `cursor` for the following one."""
    context = query.cursor_context(caller)
    position = open_cursor(query.cursor, context, deps.keyring) if query.cursor is not None else None
    page = InboxFilter(caller.tenant_id, query.limit, position, query.kind, query.run_id)
    items, following = _page(query, caller, page, deps)
    body: dict[str, Any] = {"items": items}
    if following is not None:
        body["next"] = seal_cursor(following, context, deps.keyring)
    return body


def _page(
    query: InboxQuery, caller: Caller, page: InboxFilter, deps: InboxDependencies
) -> tuple[list[dict[str, Any]], str | None]:
    if query.status == "resolved":
        decided = deps.inbox.decided(caller.principal, page)
        return [inbox_items.resolved_item(receipt) for receipt in decided.receipts], decided.next
    pending = deps.inbox.pending(page)
    now = deps.clock.now()
    answerable = [entry for entry in pending.entries if inbox_items.still_answerable(entry, now)]
    refs = inbox_items.refs_of_page(answerable, caller.principal, deps.approval)
    memberships = Memberships()
    if refs.groups or refs.roles:
        memberships = deps.directory.memberships(caller.tenant_id, caller.principal, refs.groups, refs.roles)
    own = [
        inbox_items.matched_by(entry, caller.principal, memberships, deps.approval, now)
        for entry in answerable
    ]
    unmatched = [entry for entry, matched in zip(answerable, own, strict=True) if matched is None]
    delegated = delegated_matches(unmatched, caller, deps.directory, deps.approval, now)
    items = []
    for entry, matched in zip(answerable, own, strict=True):
        matched = matched or delegated.get(entry.interrupt_id)
        if matched is not None or query.eligible == "any":
            items.append(inbox_items.pending_item(entry, caller.principal, matched))
    return items, pending.next
