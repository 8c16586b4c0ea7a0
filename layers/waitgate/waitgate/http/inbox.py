"""The inbox page's HTTP edge: where the API's paths start, and one opened interrupt as the HTML
fragment the page inserts (the link page's content and form; docs/inbox.md)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from waitgate.http.link_page import resolved_with
from waitgate.http.responses import HTML_CONTENT_TYPE, TOKEN_RESPONSE_HEADERS
from waitgate.http.router import Response
from waitgate.page import PageContext
from waitgate.page.inbox import inbox_fragment
from waitgate.run.identity import Caller
from waitgate.service.inbox_item import OpenedItem

# The fragment is only ever fetched by the inbox page and inserted there: on its own it may do nothing.
FRAGMENT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox"
VIEW_ONLY = "You can see this request, not answer it: you are not one of its approvers."


def page_base(event: Mapping[str, Any]) -> str:
    """The path before `/inbox` (empty on the API's own URL): the page's API calls start there."""
    path = str(event.get("rawPath") or "/inbox").rstrip("/")
    return path[: -len("/inbox")] if path.endswith("/inbox") else ""


def fragment_response(opened: OpenedItem, caller: Caller, now: datetime) -> Response[str]:
    record = opened.record
    context = PageContext(
        payload=record.payload,
        run_id=record.run.run_id,
        node_id=record.node_id,
        expires_at="",  # no link: the sign-in is the credential
        may_resolve=opened.may_act,
        principal=caller.principal,
        now=now,
        deadline=record.deadline,
        votes=record.votes,
        asks=record.asks,
        on_deadline=resolved_with(record.escalation),
        view_only=VIEW_ONLY
        if opened.matched_by is None
        else "Your token does not allow answering (approvals:respond).",
    )
    headers = {**TOKEN_RESPONSE_HEADERS, "Content-Security-Policy": FRAGMENT_CSP, "X-Frame-Options": "DENY"}
    return Response(
        status_code=200, content_type=HTML_CONTENT_TYPE, body=inbox_fragment(context), headers=headers
    )
