"""The inbox routes in the document (docs/inbox.md): what waits for the caller or what they decided,
the signed-in page, and one item of it."""

from __future__ import annotations

from typing import Final

from waitgate import errors as e
from waitgate.http.openapi.operations import (
    HTML,
    Operation,
    Reply,
    refusals,
)
from waitgate.http.openapi.reply_groups import AWS, GATEWAY

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
