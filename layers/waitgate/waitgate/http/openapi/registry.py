"""The registry of the HTTP API's operations (the spec's and the profile's names).

A test checks that these (method, path) pairs are exactly template.yaml's HttpApi routes.
"""

from __future__ import annotations

from typing import Final

from waitgate import errors as e
from waitgate.http.openapi.mcp_routes import MCP_OPERATIONS
from waitgate.http.openapi.operations import (
    HTML,
    INSPECT_HEADERS,
    JSON,
    PROBLEM,
    REPLAYED,
    TOKEN_HEADERS,
    Operation,
    Reply,
    refusals,
)
from waitgate.http.openapi.subscription_routes import SUBSCRIPTION_OPERATIONS

GATEWAY = (e.UnauthorizedError,)  # API Gateway's JWT authorizer (and the handler's own check)
BODY = (e.ValidationFailedError, e.PayloadTooLargeError, e.UnsupportedMediaTypeError)
# idempotency_key_in_flight is never sent: a same-key request re-reads and replays (docs/idempotency.md)
STATE = (e.InterruptAlreadyResolvedError, e.AlreadyVotedError)
AWS = (e.TemporarilyUnavailableError,)
# a write whose commit got no answer, even to its retries under one ClientRequestToken (not a 503)
WRITES = (*AWS, e.OutcomeUnknownError)
KEPT = frozenset({409, 410})  # refusals an Idempotency-Key replays
RESOLVED = (
    Reply(
        200,
        "Resolved now; `resumeValue` is what the workflow receives.",
        "ResolveAnswer",
        headers=(REPLAYED,),
    ),
    Reply(202, "Recorded, still pending (a quorum vote, an `ask`).", "ResolveAnswer", headers=(REPLAYED,)),
)
INSPECT_REFUSALS = (
    e.InterruptTokenInvalidError,
    e.InterruptExpiredError,
    e.NotFoundError,
    e.InterruptAlreadyResolvedError,
)
TOKEN_REFUSALS = (e.InterruptTokenInvalidError, e.InterruptExpiredError, e.ForbiddenError, e.NotFoundError)


NO_STORE: Final = ("Cache-Control", "Referrer-Policy")


def _token_replies(*replies: Reply) -> tuple[Reply, ...]:
    """A signed-token surface: every answer `no-store` and `no-referrer` (the path holds the token);
    a 413 may come from the gateway itself, before the function."""
    return tuple(
        Reply(
            r.status,
            r.description,
            r.schema,
            r.media,
            TOKEN_HEADERS + r.headers,
            (NO_STORE if r.status != 413 else ()) + r.required,
        )
        for r in replies
    )


RUN_PATH = "/runs/{runId}"
NODE_PATH = RUN_PATH + "/interrupts/{nodeId}"
LINK_PATH = "/interrupts/{token}"

OPERATIONS: Final[tuple[Operation, ...]] = (
    Operation(
        "resolveInterruptByRun",
        "post",
        NODE_PATH,
        "Resolve (or vote on) the interrupt pending at a run's node",
        RESOLVED
        + refusals(
            *BODY,
            *GATEWAY,
            e.ForbiddenError,
            e.SelfApprovalRefusedError,
            e.NotFoundError,
            *STATE,
            e.IdempotencyKeyReusedError,
            *WRITES,
            replayed=KEPT,
        ),
        scope="approvals:respond",
        body="ResolveRequest",
        form="ResolveForm",
        keyed=True,
        tags=("interrupts",),
    ),
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
    Operation(
        "inspectInterruptByToken",
        "get",
        LINK_PATH,
        "Read the InterruptPayload a signed link names (`Accept: text/html`: the human page)",
        _token_replies(
            Reply(
                200,
                "The InterruptPayload, as the workflow sent it.",
                "InterruptPayload",
                (JSON, HTML),
                INSPECT_HEADERS,
            ),
            *refusals(*INSPECT_REFUSALS, *AWS, media=(PROBLEM, HTML), headers=()),
        ),
        tags=("signed links",),
    ),
    Operation(
        "headInterruptByToken",
        "head",
        LINK_PATH,
        "As inspectInterruptByToken, headers only",
        tuple(
            Reply(r.status, r.description, None, (), r.headers, r.required)
            for r in _token_replies(
                Reply(200, "The link works.", headers=INSPECT_HEADERS),
                *refusals(*INSPECT_REFUSALS, *AWS, headers=()),
            )
        ),
        tags=("signed links",),
    ),
    Operation(
        "resolveInterruptByToken",
        "post",
        LINK_PATH,
        "Resolve (or vote on) the interrupt a signed link names; the token is the credential",
        _token_replies(
            *(Reply(r.status, r.description, r.schema, (JSON, HTML), r.headers) for r in RESOLVED),
            *refusals(
                *BODY,
                *TOKEN_REFUSALS,
                e.SelfApprovalRefusedError,
                *STATE,
                e.IdempotencyKeyReusedError,
                *WRITES,
                media=(PROBLEM, HTML),
                headers=(),
                replayed=KEPT,
            ),
        ),
        body="ResolveRequest",
        form="ResolveForm",
        keyed=True,
        tags=("signed links",),
    ),
    Operation(
        "requestFreshLink",
        "post",
        "/fresh-links",
        "E-mail a fresh link to the person an expired link was made for, if the request waits for them",
        _token_replies(
            Reply(202, "Always the same, whatever came of it.", "FreshLinkAnswer", (JSON, HTML)),
            *refusals(e.ValidationFailedError, e.PayloadTooLargeError, media=(PROBLEM, HTML), headers=()),
        ),
        body="FreshLinkRequest",
        form="FreshLinkRequest",
        credential="the expired link's token, in the body",
        tags=("signed links",),
    ),
    Operation(
        "mintInterruptToken",
        "post",
        NODE_PATH + "/tokens",
        "Mint a signed link to the interrupt pending at a run's node",
        (
            Reply(
                201,
                "The link; never cached, never logged.",
                "MintedLink",
                headers=(*TOKEN_HEADERS, REPLAYED),
                required=NO_STORE,
            ),
            *refusals(
                *BODY,
                *GATEWAY,
                e.ForbiddenError,
                e.NotFoundError,
                e.InterruptAlreadyResolvedError,
                e.IdempotencyKeyReusedError,
                *AWS,
                replayed=KEPT,
            ),
        ),
        scope="interrupts:mint",
        body="MintRequest",
        keyed=True,
        tags=("signed links",),
    ),
    Operation(
        "consumeDecision",
        "post",
        NODE_PATH + "/consume",
        "Spend an action-bound decision once, before doing its action (docs/approvals.md)",
        (
            Reply(201, "The first consume: its receipt.", "ConsumeReceipt"),
            *refusals(
                *BODY,
                *GATEWAY,
                e.ForbiddenError,
                e.NotFoundError,
                e.DecisionAlreadyConsumedError,
                *AWS,
            ),
        ),
        scope="approvals:respond",
        body="ConsumeRequest",
        tags=("interrupts",),
    ),
    Operation(
        "getRun",
        "get",
        RUN_PATH,
        "A run's snapshot",
        (
            Reply(200, "The RunSnapshot.", "RunSnapshot", headers=("Cache-Control",)),
            *refusals(e.ValidationFailedError, *GATEWAY, e.ForbiddenError, e.NotFoundError, *AWS),
        ),
        scope="runs:read",
        tags=("runs",),
    ),
    Operation(
        "listRunEvents",
        "get",
        RUN_PATH + "/events",
        "A page of a run's event log, in seq order",
        (
            Reply(
                200,
                "One page; `next` is the `after` of the following one.",
                "RunEventsPage",
                headers=("Cache-Control",),
            ),
            *refusals(e.ValidationFailedError, *GATEWAY, e.ForbiddenError, e.NotFoundError, *AWS),
        ),
        scope="runs:read",
        query=("mode", "after", "limit"),
        tags=("runs",),
    ),
    Operation(
        "capabilities",
        "get",
        "/capabilities",
        "What this host advertises",
        (
            Reply(
                200,
                "The interrupt facet and the conversation capability.",
                "Capabilities",
                headers=("Cache-Control",),
            ),
        ),
        tags=("host",),
    ),
    Operation(
        "slackInteractions",
        "post",
        "/channels/slack/interactions",
        "A button of a waitgate Slack message was pressed (Slack's interactivity request)",
        (
            Reply(
                200,
                "Acknowledged at once: a click of ours is queued and decided after by the Slack decider "
                "(the message then says the decision; a clicker who did not simply decide is told why, "
                "alone); a 503 queued nothing.",
                media=("text/plain",),
            ),
            *refusals(e.UnauthorizedError, *AWS),
        ),
        query=("slackTenant",),
        form="SlackInteraction",
        credential="Slack's v0 request signature (X-Slack-Signature, X-Slack-Request-Timestamp)",
        tags=("channels",),
    ),
    Operation(
        "receiveWebhook",
        "post",
        "/webhooks/{source}",
        "A provider's signed event: kept, and resolving the waits it matches (docs/webhooks.md)",
        (
            Reply(200, "Taken (matched, kept for a later wait, or a retry seen before).", "WebhookReceipt"),
            *refusals(e.ValidationFailedError, e.UnauthorizedError, e.PayloadTooLargeError, *WRITES),
        ),
        credential="the source's signature (Standard Webhooks, Stripe, GitHub, or HMAC-SHA256)",
        tags=("webhooks",),
    ),
    Operation(
        "listWebhookEvents",
        "get",
        "/webhooks/events",
        "The events a webhook source delivered that are still kept, newest first",
        (
            Reply(200, "The source's kept events.", "WebhookEventsPage", headers=("Cache-Control",)),
            *refusals(e.ValidationFailedError, *GATEWAY, e.ForbiddenError, *AWS),
        ),
        scope="runs:read",
        query=("eventSource", "eventStatus", "eventsLimit"),
        required_query=("eventSource",),
        tags=("webhooks",),
    ),
    Operation(
        "getOpenApi",
        "get",
        "/openapi.json",
        "This document",
        (Reply(200, "The OpenAPI 3.1 document of this API.", headers=("Cache-Control",)),),
        tags=("host",),
    ),
    Operation(
        "getApiDocs",
        "get",
        "/docs",
        "A browsable view of this document (Swagger UI, served by the host)",
        (Reply(200, "The page.", media=(HTML,), headers=("Cache-Control", "Content-Security-Policy")),),
        tags=("host",),
    ),
    Operation(
        "getApiDocsAsset",
        "get",
        "/docs/{asset}",
        "A script or style sheet of the /docs page",
        (
            Reply(
                200, "The asset.", media=("application/javascript", "text/css"), headers=("Cache-Control",)
            ),
            *refusals(e.NotFoundError),
        ),
        tags=("host",),
    ),
    *MCP_OPERATIONS,
    *SUBSCRIPTION_OPERATIONS,
)
