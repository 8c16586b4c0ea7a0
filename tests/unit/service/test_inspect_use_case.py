"""inspectInterruptByToken on in-memory ports with a real keyring: the payload a token names, while it
may still be answered; reading never writes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.unit.service.world import APPROVAL, CUSTOM, RUN, World
from waitgate.errors import (
    InterruptAlreadyResolvedError,
    InterruptExpiredError,
    InterruptTokenInvalidError,
    NotFoundError,
)
from waitgate.service.inspect_interrupt import ended_by_token, inspect_by_token
from waitgate.service.mint_token import MintRequest, mint_interrupt_token
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run
from waitgate.tokens import TokenClaims, mint


@pytest.fixture
def world() -> World:
    return World()


def link(world: World, intent: str = "inspect", ttl: int | None = None) -> str:
    request = MintRequest(intent, "bob", ttl)  # type: ignore[arg-type]
    return mint_interrupt_token(RUN, "Gate", request, world.minting()).token


def test_an_inspect_link_shows_the_payload_as_sent_and_offers_no_answer(world: World) -> None:
    world.request(APPROVAL)
    view = inspect_by_token(link(world, ttl=600), world.tokens())
    assert view.payload == APPROVAL
    assert view.record.interrupt_id == world.interrupt().interrupt_id
    assert (view.may_resolve, view.expires_at, view.claims.sub) == (False, "2026-11-30T10:10:00Z", "bob")


def test_a_resolve_link_may_inspect_and_offers_the_answer(world: World) -> None:
    world.request(APPROVAL)
    assert inspect_by_token(link(world, "resolve"), world.tokens()).may_resolve is True


def test_reading_never_writes_however_often(world: World) -> None:
    # Given a pending interrupt and a link a mail scanner opens many times
    world.request(CUSTOM)
    token = link(world)
    commits, log, record = world.store.commits, world.log(), world.interrupt()
    for _ in range(5):
        inspect_by_token(token, world.tokens())
    # Then nothing was written: no vote, no event, no status change
    assert (world.store.commits, world.log(), world.interrupt()) == (commits, log, record)
    assert world.store.answers == {} and world.workflow.successes == []


def test_a_resolved_interrupt_or_a_later_one_at_the_node_is_409(world: World) -> None:
    world.request(CUSTOM)
    token = link(world)
    world.resolve({"label": "ok"})
    with pytest.raises(InterruptAlreadyResolvedError):
        inspect_by_token(token, world.tokens())
    world.request({**CUSTOM, "key": "again"}, token="task-2")
    with pytest.raises(InterruptAlreadyResolvedError):
        inspect_by_token(token, world.tokens())


def test_what_came_of_it_is_read_for_the_token_of_that_interrupt_only(world: World) -> None:
    # Given a link to a pending interrupt: nothing has come of it yet
    world.request(CUSTOM)
    token = link(world)
    assert ended_by_token(token, world.tokens()) is None
    # When it is resolved, Then its link reads the resolution, and writes nothing
    world.resolve({"label": "ok"})
    commits = world.store.commits
    ended = ended_by_token(token, world.tokens())
    assert ended is not None
    assert (ended.record.status, ended.record.resume_value) == ("resolved", {"label": "ok"})
    assert world.store.commits == commits
    # When a later interrupt waits at the node, Then the old link reads nothing of it
    world.request({**CUSTOM, "key": "again"}, token="task-2")
    assert ended_by_token(token, world.tokens()) is None
    # And a broken token is refused as by inspect
    with pytest.raises(InterruptTokenInvalidError):
        ended_by_token(token[:-10] + ("A" if token[-10] != "A" else "B") + token[-9:], world.tokens())


def test_an_ended_run_is_409(world: World) -> None:
    world.request(CUSTOM)
    token = link(world)
    end_run(RUN, "failed", "FAILED", LifecycleDependencies(world.store, world.index, world.clock))
    with pytest.raises(InterruptAlreadyResolvedError, match="failed"):
        inspect_by_token(token, world.tokens())


def test_past_the_deadline_or_the_tokens_expiry_is_410(world: World) -> None:
    # Given a token that outlives its interrupt's deadline, used after it
    world.request({**CUSTOM, "timeoutMs": 1000})
    record = world.interrupt()
    expires = world.clock.now() + timedelta(minutes=5)
    outliving = mint(
        TokenClaims(record.interrupt_id, "run-1", "Gate", "default", "inspect", expires), world.keyring
    )
    world.clock.advance(seconds=1)
    with pytest.raises(InterruptExpiredError, match="deadline"):
        inspect_by_token(outliving, world.tokens())
    # And a token past its own expiry is 410 too
    world.clock.advance(minutes=5)
    with pytest.raises(InterruptExpiredError, match="token"):
        inspect_by_token(outliving, world.tokens())


def test_a_broken_token_is_401_and_one_for_no_interrupt_404(world: World) -> None:
    world.request(CUSTOM)
    with pytest.raises(InterruptTokenInvalidError):
        inspect_by_token(link(world)[:-1], world.tokens())
    expires = world.clock.now() + timedelta(minutes=5)
    nowhere = mint(TokenClaims("01X", "run-1", "Elsewhere", "default", "inspect", expires), world.keyring)
    with pytest.raises(NotFoundError):
        inspect_by_token(nowhere, world.tokens())
    other_tenant = mint(TokenClaims("01X", "run-1", "Gate", "acme", "inspect", expires), world.keyring)
    with pytest.raises(NotFoundError):
        inspect_by_token(other_tenant, world.tokens())
