"""The inbox routes in the document (docs/inbox.md): what waits for the caller or what they decided,
the signed-in page, and one item of it; the list's bodies."""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, Field

from waitgate import errors as e
from waitgate.http.openapi.body_config import CLOSED
from waitgate.http.openapi.operations import (
    HTML,
    Operation,
    Reply,
    refusals,
)
from waitgate.http.openapi.reply_groups import AWS, GATEWAY
from waitgate.payloads.kinds import InterruptKind


class QuorumProgress(BaseModel):
    """How far an approval's tally got: `approvals` of `requiredApprovals` ("1 of 2")."""

    model_config = CLOSED

    approvals: int
    required_approvals: int
    rejections: int
    rejections_needed: int


class VoteSummary(BaseModel):
    model_config = CLOSED

    action: str
    decided_at: str
    feedback: str | None = None


class InboxItem(BaseModel):
    """One interrupt of the inbox: pending (what waits) or resolved (what the caller decided)."""

    model_config = CLOSED

    run_id: str
    node_id: str
    interrupt_id: str
    kind: InterruptKind
    title: str
    status: Literal["pending", "resolved"]
    requested_at: str
    deadline: str | None = Field(default=None, description="Pending: until when it may be answered.")
    resolved_at: str | None = Field(default=None, description="Resolved: when.")
    action: str | None = Field(default=None, description="Resolved: the decision's action, if it has one.")
    progress: QuorumProgress | None = Field(default=None, description="An approval's quorum so far.")
    my_vote: VoteSummary | None = Field(default=None, description="The caller's own vote, if any.")
    matched_by: str | None = Field(
        default=None,
        description="Pending: why the caller may act on it (list, group:<ref>, role:<ref>, "
        "escalation:<step>, override, open); absent on an `eligible=any` item they may not act on.",
    )


class InterruptList(BaseModel):
    model_config = CLOSED

    items: list[InboxItem]
    next: str | None = Field(
        default=None,
        description="Pass it as `cursor` for the next page; absent on the last. A page may hold fewer "
        "than `limit` items (even none) and still have a `next`: eligibility is applied after the read.",
    )


INBOX_OPERATIONS: Final[tuple[Operation, ...]] = (
    Operation(
        "listInterrupts",
        "get",
        "/interrupts",
        "What waits for the caller (status=pending), or what they decided (status=resolved&decidedBy=me)",
        (
            Reply(
                200,
                "One page, one Query: by deadline then age (pending), newest first (resolved).",
                "InterruptList",
                headers=("Cache-Control",),
            ),
            *refusals(e.ValidationFailedError, *GATEWAY, e.ForbiddenError, *AWS),
        ),
        scope=("approvals:respond", "runs:read"),
        query=("status", "eligible", "decidedBy", "kind", "filterRunId", "pageLimit", "cursor"),
        tags=("inbox",),
    ),
    Operation(
        "getInboxPage",
        "get",
        "/inbox",
        "The signed-in inbox page (OpenID Connect authorization code + PKCE in the browser)",
        (
            Reply(
                200,
                "The page; it holds no data until its script signs the person in.",
                media=(HTML,),
                headers=("Cache-Control", "Referrer-Policy", "Content-Security-Policy"),
            ),
        ),
        tags=("inbox",),
    ),
    Operation(
        "getInboxItem",
        "get",
        "/inbox/interrupts/{runId}/{nodeId}",
        "One pending interrupt as the inbox opens it: the link page's content and form (an HTML fragment)",
        (
            Reply(
                200,
                "The fragment (no script, no style: the inbox page's apply).",
                media=(HTML,),
                headers=("Cache-Control", "Content-Security-Policy"),
            ),
            *refusals(
                e.ValidationFailedError,
                *GATEWAY,
                e.ForbiddenError,
                e.NotFoundError,
                e.InterruptAlreadyResolvedError,
                *AWS,
            ),
        ),
        scope=("approvals:respond", "runs:read"),
        tags=("inbox",),
    ),
)
