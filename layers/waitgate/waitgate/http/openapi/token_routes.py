"""The signed-link routes in the document (docs/signed-links.md): `/interrupts/{token}` read, checked
and answered with the token as the credential, and `/fresh-links`; every answer `no-store` and
`no-referrer`, the path holding the token."""

from __future__ import annotations

from typing import Final

from waitgate import errors as e
from waitgate.http.openapi.operations import (
    HTML,
    INSPECT_HEADERS,
    JSON,
    PROBLEM,
    TOKEN_HEADERS,
    Operation,
    Reply,
    refusals,
)
from waitgate.http.openapi.reply_groups import AWS, BODY, KEPT, RESOLVED, STATE, WRITES

LINK_PATH = "/interrupts/{token}"
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


TOKEN_OPERATIONS: Final[tuple[Operation, ...]] = (
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
)
