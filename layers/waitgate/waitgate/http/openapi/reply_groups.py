"""The refusals and replies several operations of the document give alike, and the run's paths."""

from __future__ import annotations

from waitgate import errors as e
from waitgate.http.openapi.operations import REPLAYED, Reply

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

RUN_PATH = "/runs/{runId}"
NODE_PATH = RUN_PATH + "/interrupts/{nodeId}"
