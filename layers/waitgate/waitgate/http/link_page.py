"""The human page a signed link opens in a browser: the interrupt while it waits (with its votes and
questions so far, and the link's recipient), what came of it once resolved (409), or, for an expired
link or an interrupt past its deadline, the page that leads somewhere (410: the inbox, a fresh link,
or what was decided). Every other refusal (401, 403, 404, a 409 for an interrupt the page cannot
show) is raised to the token resolver, which renders its error page."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from waitgate.errors import InterruptAlreadyResolvedError, InterruptExpiredError
from waitgate.escalation.deadline_decision import DEADLINE_DECIDER, decided_by_deadline
from waitgate.page import PageContext, Refusal, RenderedPage, Resolution, interrupt_page, resolved_page
from waitgate.page.expired import ExpiredFacts, expired_page
from waitgate.run.records import InterruptRecord
from waitgate.run.telemetry import TokenRefused
from waitgate.service.inspect_interrupt import (
    ExpiredLink,
    InterruptView,
    ended_by_token,
    expired_link,
    inspect_by_token,
)
from waitgate.service.link_viewer import decides_for
from waitgate.service.token_access import TokenDependencies
from waitgate.tokens.claims import format_expires_at


def link_page(token: str, deps: TokenDependencies) -> tuple[int, RenderedPage]:
    try:
        view = inspect_by_token(token, deps)
    except InterruptExpiredError:
        deps.telemetry.record(TokenRefused(410))
        return 410, expired_link_page(token, deps)
    except InterruptAlreadyResolvedError:
        ended = ended_by_token(token, deps)
        if ended is None or ended.record.status != "resolved":
            raise
        deps.telemetry.record(TokenRefused(409))
        return 409, resolved_page(resolution_of(ended), ended.record.run.run_id, deps.clock.now())
    context = page_context(view, deps.clock.now())
    if deps.directory is not None:
        delegator = decides_for(view.record, view.principal, deps.directory, deps.approval, deps.clock.now())
        context = replace(context, decides_for=delegator)
    return 200, interrupt_page(context)


def expired_link_page(token: str, deps: TokenDependencies) -> RenderedPage:
    """The 410 page of an authentic link that no longer works (401 for any other token)."""
    return expired_page(expired_facts(expired_link(token, deps), token), deps.clock.now())


def expired_facts(link: ExpiredLink, token: str) -> ExpiredFacts:
    claims, record = link.claims, link.record
    personal = claims.sub is not None and claims.intent == "resolve"
    decided = link.decided
    return ExpiredFacts(
        run_id=claims.run_id,
        node_id=claims.node_id,
        expired_at=format_expires_at(claims.expires_at),
        kind=record.kind if record else "",
        data=record.data if record else {},
        waits=link.waits,
        fresh_token=token if link.waits and personal else None,
        resolution=_decision(decided) if decided else None,
        by_deadline=decided is not None and decided_by_deadline(decided),
    )


def _decision(record: InterruptRecord) -> Resolution:
    by = DEADLINE_DECIDER if decided_by_deadline(record) else None
    return Resolution(record.kind, record.data, record.resume_value, record.resolved_at, answered_by=by)


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
