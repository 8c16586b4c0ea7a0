"""Resolving by a signed token on in-memory ports with a real keyring: the checks in the profile's
order — 401 (shape, MAC) → 410 (expiry) → 403 (intent) → the body → the interrupt's state."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

import pytest

from tests.unit.service.world import APPROVAL, CUSTOM, RUN, World
from waitgate.errors import (
    ForbiddenError,
    InterruptAlreadyResolvedError,
    InterruptExpiredError,
    InterruptTokenInvalidError,
    NotFoundError,
    UnsupportedMediaTypeError,
    WaitgateError,
)
from waitgate.http.idempotency import idempotency_ref
from waitgate.run.identity import Caller
from waitgate.run.records import IdempotencyRef
from waitgate.service.mint_token import MintRequest, mint_interrupt_token
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run
from waitgate.service.token_access import KeyFor, resolve_by_token, token_caller
from waitgate.tokens import Keyring, TokenClaims, mint

VALUE = {"label": "ok"}


@pytest.fixture
def world() -> World:
    return World()


def link(world: World, intent: str = "resolve", sub: str | None = None, ttl: int | None = None) -> str:
    request = MintRequest(intent, sub, ttl)  # type: ignore[arg-type]
    return mint_interrupt_token(RUN, "Gate", request, world.minting()).token


def no_key(caller: Caller, request: Mapping[str, Any]) -> IdempotencyRef | None:
    return None


def keyed(name: str) -> KeyFor:
    def key_for(caller: Caller, request: Mapping[str, Any]) -> IdempotencyRef | None:
        return idempotency_ref(
            {"headers": {"Idempotency-Key": name}}, "resolveInterruptByToken", caller, request
        )

    return key_for


class Body:
    """The request body as HTTP reads it; counts whether it was read at all."""

    def __init__(self, value: Any = VALUE, refusal: WaitgateError | None = None) -> None:
        self.value, self.refusal, self.reads = value, refusal, 0

    def __call__(self) -> Any:
        self.reads += 1
        if self.refusal is not None:
            raise self.refusal
        return self.value


def resolve(world: World, token: str, body: Callable[[], Any] | None = None, key_for: KeyFor = no_key) -> Any:
    return resolve_by_token(token, body or Body(), world.keyring, world.resolving(), key_for)


BAD_BODY = UnsupportedMediaTypeError("The body must be application/json.")


def test_a_resolve_token_resolves_as_its_sub(world: World) -> None:
    # Given a pending approval and a link minted for bob
    world.request(APPROVAL)
    token = link(world, sub="bob")
    # When bob accepts through it
    answer = resolve(world, token, Body({"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}))
    # Then it is resolved, decided by bob, and delivered
    assert answer.status == 200
    assert json.loads(answer.body)["resumeValue"]["decidedBy"] == "bob"
    assert world.workflow.successes[0][1]["decidedBy"] == "bob"
    # And the spent link answers 409
    with pytest.raises(InterruptAlreadyResolvedError):
        resolve(world, token, Body({"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}))


def test_a_token_without_sub_answers_as_the_token_itself(world: World) -> None:
    world.request(CUSTOM)
    claims = TokenClaims(
        "01X", "run-1", "Gate", "default", "resolve", world.clock.now() + timedelta(minutes=5)
    )
    caller = token_caller(claims)
    assert (caller.principal, caller.tenant_id, caller.via, caller.token_id) == (
        f"token:{claims.jti}",
        "default",
        "token",
        claims.jti,
    )
    assert (
        token_caller(TokenClaims("01X", "r", "n", "t", "resolve", claims.expires_at, sub="bob")).principal
        == "bob"
    )


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # another MAC
        lambda token: token.replace("ow2.hs256.k1.", "ow2.hs256.k2.", 1),  # an unknown kid
        lambda token: token.replace("ow2.hs256.", "ow2.none.", 1),  # another alg
        lambda token: "not-a-token",
        lambda token: token + "." * 5000,
    ],
)
def test_every_broken_token_is_401_before_the_body_is_read(world: World, forge: Any) -> None:
    world.request(CUSTOM)
    body = Body(refusal=BAD_BODY)
    with pytest.raises(InterruptTokenInvalidError):
        resolve(world, forge(link(world)), body)
    assert body.reads == 0


def test_a_token_of_another_keyring_is_401(world: World) -> None:
    world.request(CUSTOM)
    token = link(world)
    world.keyring = Keyring("k1", {"k1": secrets.token_bytes(32)})
    with pytest.raises(InterruptTokenInvalidError):
        resolve(world, token)


def test_an_expired_token_is_410_before_its_intent_is_checked(world: World) -> None:
    # Given an inspect link that has expired
    world.request(CUSTOM)
    token = link(world, "inspect", ttl=60)
    world.clock.advance(seconds=60)
    body = Body(refusal=BAD_BODY)
    # When used to resolve, Then 410 (not 403), and the body is not read
    with pytest.raises(InterruptExpiredError):
        resolve(world, token, body)
    assert body.reads == 0


def test_an_inspect_token_is_403_before_the_body_is_read(world: World) -> None:
    world.request(CUSTOM)
    body = Body(refusal=BAD_BODY)
    with pytest.raises(ForbiddenError):
        resolve(world, link(world, "inspect"), body)
    assert body.reads == 0 and world.interrupt().status == "pending"


def test_a_refused_body_comes_before_the_interrupts_state(world: World) -> None:
    # Given a link whose interrupt is resolved already
    world.request(CUSTOM)
    token = link(world)
    world.resolve(VALUE)
    # Then a body HTTP refuses is refused first (415), and a good one learns the state (409)
    with pytest.raises(UnsupportedMediaTypeError):
        resolve(world, token, Body(refusal=BAD_BODY))
    with pytest.raises(InterruptAlreadyResolvedError):
        resolve(world, token)


def test_a_minted_link_expires_with_the_deadline_410(world: World) -> None:
    # Given a link minted a second before its interrupt's deadline (it ends at the deadline's second)
    world.request({**CUSTOM, "timeoutMs": 2500})
    world.clock.advance(seconds=1)
    token = link(world)
    # When used at that second, Then the token itself has expired: 410
    world.clock.advance(seconds=1)
    with pytest.raises(InterruptExpiredError, match="token"):
        resolve(world, token)


def test_a_token_outliving_the_deadline_still_finds_it_passed_410(world: World) -> None:
    # Given a token (signed by this keyring) that outlives its interrupt's deadline
    world.request({**CUSTOM, "timeoutMs": 2000})
    record = world.interrupt()
    expires = world.clock.now() + timedelta(minutes=5)
    claims = TokenClaims(record.interrupt_id, "run-1", "Gate", "default", "resolve", expires)
    token = mint(claims, world.keyring)
    # When used past the deadline, Then the state check answers 410 on the token surface
    world.clock.advance(seconds=2)
    with pytest.raises(InterruptExpiredError, match="deadline"):
        resolve(world, token)
    assert world.interrupt().status == "pending"


def test_a_token_for_an_earlier_interrupt_at_the_node_is_409(world: World) -> None:
    world.request(CUSTOM)
    token = link(world)
    world.resolve(VALUE)
    world.request({**CUSTOM, "key": "again"}, token="task-2")
    with pytest.raises(InterruptAlreadyResolvedError):
        resolve(world, token)
    assert world.interrupt().status == "pending"


def test_a_token_of_an_ended_run_is_409(world: World) -> None:
    world.request(CUSTOM)
    token = link(world)
    end_run(RUN, "cancelled", "ABORTED", LifecycleDependencies(world.store, world.index, world.clock))
    with pytest.raises(InterruptAlreadyResolvedError):
        resolve(world, token)


def test_a_token_that_names_no_run_or_an_impossible_node_is_404(world: World) -> None:
    expires = world.clock.now() + timedelta(minutes=5)
    for run_id, node_id in (("run-none", "Gate"), ("run-1", "N" * 81), ("bad id!", "Gate")):
        token = mint(TokenClaims("01X", run_id, node_id, "default", "resolve", expires), world.keyring)
        with pytest.raises(NotFoundError):
            resolve(world, token)


def test_a_keyed_resolve_by_token_replays_its_answer(world: World) -> None:
    # Given a keyed resolve through a link
    world.request(CUSTOM)
    token = link(world)
    first = resolve(world, token, key_for=keyed("k-1"))
    assert (first.status, first.replayed) == (200, False)
    # When retried with the same key and body, Then the same answer, and nothing is delivered twice
    again = resolve(world, token, key_for=keyed("k-1"))
    assert (again.status, again.body, again.replayed) == (200, first.body, True)
    assert len(world.workflow.successes) == 1


def test_the_keys_scope_is_the_token(world: World) -> None:
    # Given two links to one interrupt, each used with the same key
    world.request(CUSTOM)
    first, second = link(world), link(world)
    resolve(world, first, key_for=keyed("k-1"))
    # Then the second link's use is its own request: the interrupt is resolved already (409, kept)
    answer = resolve(world, second, key_for=keyed("k-1"))
    assert (answer.status, answer.replayed) == (409, False)
    assert resolve(world, second, key_for=keyed("k-1")).replayed


def test_a_keyed_410_past_the_deadline_is_kept_and_replayed(world: World) -> None:
    # Given a token outliving its interrupt's deadline, used under a key after the deadline
    world.request({**CUSTOM, "timeoutMs": 1000})
    record = world.interrupt()
    expires = world.clock.now() + timedelta(minutes=5)
    token = mint(
        TokenClaims(record.interrupt_id, "run-1", "Gate", "default", "resolve", expires), world.keyring
    )
    world.clock.advance(seconds=1)
    refused = resolve(world, token, key_for=keyed("k-1"))
    # Then the 410 is the key's answer, and a retry replays it
    assert (refused.status, json.loads(refused.body)["code"]) == (410, "interrupt_expired")
    again = resolve(world, token, key_for=keyed("k-1"))
    assert (again.status, again.body, again.replayed) == (410, refused.body, True)
