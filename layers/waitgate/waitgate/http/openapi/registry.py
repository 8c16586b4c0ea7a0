"""The registry of the HTTP API's operations (the spec's and the profile's names).

A test checks that these (method, path) pairs are exactly template.yaml's HttpApi routes.
"""

from __future__ import annotations

from typing import Final

from waitgate import errors as e
from waitgate.http.openapi.inbox_routes import INBOX_OPERATIONS
from waitgate.http.openapi.mcp_routes import MCP_OPERATIONS
from waitgate.http.openapi.operations import (
    HTML,
    REPLAYED,
    TOKEN_HEADERS,
    Operation,
    Reply,
    refusals,
)
from waitgate.http.openapi.reply_groups import (
    AWS,
    BODY,
    GATEWAY,
    KEPT,
    NODE_PATH,
    RESOLVED,
    RUN_PATH,
    STATE,
    WRITES,
)
from waitgate.http.openapi.subscription_routes import SUBSCRIPTION_OPERATIONS
from waitgate.http.openapi.token_routes import NO_STORE, TOKEN_OPERATIONS

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
    *INBOX_OPERATIONS,
    *TOKEN_OPERATIONS,
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
