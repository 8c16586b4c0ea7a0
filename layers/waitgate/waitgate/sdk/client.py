"""A client for waitgate's HTTP API: resolve, inspect, mint, consume (an action-bound decision, once),
runs, events, the inbox (`pending`, `decided`), capabilities.

    client = WaitgateClient("https://api.example.com", token_provider=lambda: my_jwt())
    client.resolve_by_run("release-42", "Approve", {"action": "accept", "decidedAt": now})

Every resolve and mint sends an Idempotency-Key: a fresh uuid4 per call (or yours, via
`idempotency_key=`), the same one on each retry of that call, so a retry can never decide twice.
Errors are typed per problem code (waitgate.sdk.api_errors). A token surface (`*_by_token`) takes the
token or the whole link; no JWT is sent there, the token is the credential.
"""

from __future__ import annotations

import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from waitgate.sdk.decisions import ApprovalDecision
from waitgate.sdk.transport import Answer, RetryPolicy, Transport

IDEMPOTENCY_KEY = "Idempotency-Key"
REPLAYED = "idempotent-replayed"


@dataclass(frozen=True)
class Resolution:
    """200 resolved (`resume_value` is what the workflow got) or 202 pending (a quorum vote, an ask)."""

    run_id: str
    node_id: str
    interrupt_id: str
    status: str
    resume_value: Any = None
    replayed: bool = False  # the host answered from its idempotency record

    @classmethod
    def of(cls, answer: Answer) -> Resolution:
        body = answer.body
        return cls(
            run_id=body["runId"],
            node_id=body["nodeId"],
            interrupt_id=body["interruptId"],
            status=body["status"],
            resume_value=body.get("resumeValue"),
            replayed=answer.headers.get(REPLAYED, "").lower() == "true",
        )


@dataclass(frozen=True)
class MintedLink:
    """A signed link. `token` and `url` are credentials: kept out of repr, never log them."""

    token: str = field(repr=False)
    url: str = field(repr=False)
    expires_at: datetime


@dataclass(frozen=True)
class InboxPage:
    """One page of `GET /interrupts`: its items (JSON objects: runId, nodeId, interruptId, kind, title,
    requestedAt, deadline?, progress?, myVote?, matchedBy?, ...) and the cursor of the next page, None
    on the last. A page may hold fewer items than asked for (even none) and still have a next."""

    items: list[dict[str, Any]]
    next: str | None = None


@dataclass(frozen=True)
class TokenInspection:
    """The InterruptPayload a link is for (as the workflow sent it) and where it waits."""

    payload: dict[str, Any]
    run_id: str | None
    node_id: str | None
    interrupt_id: str | None
    status: str | None
    link_expires_at: datetime | None


class WaitgateClient:
    def __init__(
        self,
        base_url: str,
        token_provider: Callable[[], str] | None = None,
        timeout: float = 10,
        retries: int = 3,
        *,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """`token_provider` returns a bearer JWT, called per request so it may refresh."""
        self.base_url = base_url.rstrip("/")
        self._token_provider = token_provider
        self._transport = Transport(timeout, policy or RetryPolicy(retries=retries), sleep)

    def resolve_by_run(
        self, run_id: str, node_id: str, resume_value: Any, *, idempotency_key: str | None = None
    ) -> Resolution:
        """POST /runs/{runId}/interrupts/{nodeId} (scope approvals:respond)."""
        path = f"/runs/{_segment(run_id)}/interrupts/{_segment(node_id)}"
        answer = self._post(path, {"resumeValue": resume_value}, idempotency_key, authorized=True)
        return Resolution.of(answer)

    def consume(self, decision: ApprovalDecision) -> dict[str, Any]:
        """POST /runs/{runId}/interrupts/{nodeId}/consume (scope approvals:respond): spend an accepted,
        action-bound decision once, just before doing its action. The first consume returns its
        receipt `{runId, nodeId, interruptId, actionFingerprint, consumedBy, consumedAt}`; any later
        one raises `DecisionAlreadyConsumed` (a retried step must not do the action again); a
        decision that is not accepted and bound to an action raises `ValueError`, sending nothing."""
        where, fingerprint = decision.decision_of, decision.action_fingerprint
        if not decision.accepted or where is None or fingerprint is None:
            raise ValueError("only an accepted, action-bound decision (data.action) can be consumed")
        path = f"/runs/{_segment(where.run_id)}/interrupts/{_segment(where.node_id)}/consume"
        body = {"interruptId": where.interrupt_id, "actionFingerprint": fingerprint}
        # one Idempotency-Key for the call: a retry of a lost answer gets its receipt, not a 409
        receipt: dict[str, Any] = self._post(path, body, None, authorized=True).body
        return receipt

    def inspect_by_token(self, token_or_link: str) -> TokenInspection:
        """GET /interrupts/{token}: the payload, and the link's run, node, status and expiry."""
        answer = self._transport.exchange("GET", self._link(token_or_link), {"Accept": "application/json"})
        headers = answer.headers
        expires = headers.get("waitgate-link-expires-at")
        return TokenInspection(
            payload=answer.body,
            run_id=headers.get("waitgate-run-id"),
            node_id=headers.get("waitgate-node-id"),
            interrupt_id=headers.get("waitgate-interrupt-id"),
            status=headers.get("waitgate-status"),
            link_expires_at=_datetime(expires) if expires else None,
        )

    def resolve_by_token(
        self, token_or_link: str, resume_value: Any, *, idempotency_key: str | None = None
    ) -> Resolution:
        """POST /interrupts/{token}; the token's `sub` is the decider."""
        answer = self._post(self._link(token_or_link), {"resumeValue": resume_value}, idempotency_key)
        return Resolution.of(answer)

    def mint_token(
        self,
        run_id: str,
        node_id: str,
        *,
        intent: str = "resolve",
        sub: str | None = None,
        ttl_seconds: int | None = None,
        idempotency_key: str | None = None,
    ) -> MintedLink:
        """POST /runs/{runId}/interrupts/{nodeId}/tokens (scope interrupts:mint)."""
        body: dict[str, Any] = {"intent": intent}
        if sub is not None:
            body["sub"] = sub
        if ttl_seconds is not None:
            body["ttlSeconds"] = ttl_seconds
        path = f"/runs/{_segment(run_id)}/interrupts/{_segment(node_id)}/tokens"
        minted = self._post(path, body, idempotency_key, authorized=True).body
        return MintedLink(minted["token"], minted["url"], _datetime(minted["expiresAt"]))

    def get_run(self, run_id: str) -> dict[str, Any]:
        """GET /runs/{runId} (scope runs:read): {runId, tenantId, status, currentNodeId?, ...}."""
        run: dict[str, Any] = self._get(f"/runs/{_segment(run_id)}").body
        return run

    def list_run_events(
        self, run_id: str, *, mode: str = "updates", after: int | None = None, page_size: int = 100
    ) -> Iterator[dict[str, Any]]:
        """GET /runs/{runId}/events, page after page, in seq order: every event after `after`."""
        while True:
            query: dict[str, Any] = {"mode": mode, "limit": page_size}
            if after is not None:
                query["after"] = after
            page = self._get(f"/runs/{_segment(run_id)}/events?{urllib.parse.urlencode(query)}").body
            yield from page["events"]
            if "next" not in page:
                return
            after = page["next"]

    def pending(
        self,
        *,
        eligible: str = "me",
        kind: str | None = None,
        run_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Iterator[InboxPage]:
        """GET /interrupts?status=pending (scope approvals:respond or runs:read), page after page:
        what the caller may act on now (`eligible="any"`, with runs:read: every pending interrupt
        of the tenant), by deadline then age. Stops after the page without a `next`."""
        query: dict[str, Any] = {"status": "pending", "limit": limit}
        if eligible != "me":
            query["eligible"] = eligible
        return self._pages(query, kind, run_id, cursor)

    def decided(
        self,
        *,
        kind: str | None = None,
        run_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Iterator[InboxPage]:
        """GET /interrupts?status=resolved&decidedBy=me, page after page: what the caller decided
        (kept 30 days), newest first."""
        return self._pages({"status": "resolved", "decidedBy": "me", "limit": limit}, kind, run_id, cursor)

    def _pages(
        self, query: dict[str, Any], kind: str | None, run_id: str | None, cursor: str | None
    ) -> Iterator[InboxPage]:
        if kind is not None:
            query["kind"] = kind
        if run_id is not None:
            query["runId"] = run_id
        while True:
            if cursor is not None:
                query["cursor"] = cursor
            body = self._get(f"/interrupts?{urllib.parse.urlencode(query)}").body
            page = InboxPage(list(body["items"]), body.get("next"))
            yield page
            if page.next is None:
                return
            cursor = page.next

    def capabilities(self) -> dict[str, Any]:
        """GET /capabilities (public)."""
        capabilities: dict[str, Any] = self._get("/capabilities", authorized=False).body
        return capabilities

    def _get(self, path: str, *, authorized: bool = True) -> Answer:
        headers = {"Accept": "application/json"} | (self._authorization() if authorized else {})
        return self._transport.exchange("GET", self.base_url + path, headers)

    def _post(self, target: str, body: Any, key: str | None, *, authorized: bool = False) -> Answer:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            IDEMPOTENCY_KEY: key or str(uuid.uuid4()),
        } | (self._authorization() if authorized else {})
        url = target if target.startswith(("http://", "https://")) else self.base_url + target
        return self._transport.exchange("POST", url, headers, body)

    def _authorization(self) -> dict[str, str]:
        return {} if self._token_provider is None else {"Authorization": f"Bearer {self._token_provider()}"}

    def _link(self, token_or_link: str) -> str:
        if token_or_link.startswith(("http://", "https://")):
            return token_or_link
        return f"{self.base_url}/interrupts/{_segment(token_or_link)}"


def _segment(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def _datetime(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
