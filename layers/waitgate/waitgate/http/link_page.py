"""The human page a signed link opens in a browser: the interrupt while it waits (with its votes and
questions so far, and the link's recipient), or what came of it once resolved (409). Every other
refusal (401, 410, 403, 404, a 409 for an interrupt the page cannot show) is raised to the token
resolver, which renders its error page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from waitgate.errors import InterruptAlreadyResolvedError
from waitgate.page import PageContext, Refusal, RenderedPage, Resolution, interrupt_page, resolved_page
from waitgate.service.inspect_interrupt import InterruptView, ended_by_token, inspect_by_token
from waitgate.service.token_access import TokenDependencies
from waitgate.telemetry import TokenRefused


def link_page(token: str, deps: TokenDependencies) -> tuple[int, RenderedPage]:
    try:
        view = inspect_by_token(token, deps)
    except InterruptAlreadyResolvedError:
        ended = ended_by_token(token, deps)
        if ended is None or ended.record.status != "resolved":
            raise
        deps.telemetry.record(TokenRefused(409))
        return 409, resolved_page(resolution_of(ended), ended.record.run.run_id, deps.clock.now())
    return 200, interrupt_page(page_context(view, deps.clock.now()))


def page_context(
    view: InterruptView, now: datetime, refusal: Refusal | None = None, notice: str = ""
) -> PageContext:
    record = view.record
    return PageContext(
        payload=view.payload,
        run_id=record.run.run_id,
        node_id=record.node_id,
        expires_at=view.expires_at,
        may_resolve=view.may_resolve,
        principal=view.principal,
        now=now,
        deadline=record.deadline,
        votes=record.votes,
        asks=record.asks,
        refusal=refusal,
        notice=notice,
        on_deadline=resolved_with(record.escalation),
    )


def resolved_with(policy: dict[str, Any] | None) -> Any:
    """What an escalation policy resolves the interrupt with at its deadline, if it does."""
    on_deadline = (policy or {}).get("onDeadline")
    return on_deadline.get("resolveWith") if isinstance(on_deadline, dict) else None


def resolution_of(view: InterruptView) -> Resolution:
    record = view.record
    return Resolution(record.kind, record.data, record.resume_value, record.resolved_at)
