"""mintInterruptToken on in-memory ports with a real keyring: a signed link to one pending interrupt
that never outlives it, and under an Idempotency-Key the same link again."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from tests.unit.service.world import ALICE, BASE_URL, CUSTOM, RUN, World
from waitgate.errors import (
    IdempotencyKeyReusedError,
    InterruptAlreadyResolvedError,
    InterruptExpiredError,
    NotFoundError,
    ValidationFailedError,
)
from waitgate.http.idempotency import idempotency_ref
from waitgate.run.answers import Answer
from waitgate.run.identity import Caller
from waitgate.run.records import IdempotencyRef, RunRef
from waitgate.service.mint_token import (
    MAX_TTL_SECONDS,
    MintRequest,
    mint_answer,
    mint_interrupt_token,
    parse_mint_request,
)
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run
from waitgate.tokens import verify


@pytest.fixture
def world() -> World:
    return World()


def mint(world: World, request: MintRequest | None = None, *, node: str = "Gate", run: RunRef = RUN) -> Any:
    return mint_interrupt_token(run, node, request or MintRequest("resolve"), world.minting())


def key(
    name: str, body: dict[str, Any], *, node: str = "Gate", caller: Caller = ALICE
) -> IdempotencyRef | None:
    event = {"headers": {"Idempotency-Key": name}}
    return idempotency_ref(
        event, "mintInterruptToken", caller, {"runId": "run-1", "nodeId": node, "body": body}
    )


def keyed(
    world: World, name: str, body: dict[str, Any], *, node: str = "Gate", caller: Caller = ALICE
) -> Answer:
    ref = key(name, body, node=node, caller=caller)
    return mint_answer(RUN, node, parse_mint_request(body), ref, world.minting())


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"intent": "resolve"}, MintRequest("resolve")),
        ({"intent": "inspect", "sub": "bob"}, MintRequest("inspect", "bob")),
        ({"intent": "resolve", "ttlSeconds": MAX_TTL_SECONDS}, MintRequest("resolve", None, MAX_TTL_SECONDS)),
        ({"intent": "resolve", "sub": "b" * 255}, MintRequest("resolve", "b" * 255)),
    ],
)
def test_a_mint_body_is_intent_sub_and_ttl(body: dict[str, Any], expected: MintRequest) -> None:
    assert parse_mint_request(body) == expected


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ("resolve", "$"),
        ({}, "$"),
        ({"intent": "resolve", "scope": "all"}, "$"),
        ({"intent": "delete"}, "intent"),
        ({"intent": ["resolve"]}, "intent"),
        ({"intent": "resolve", "sub": ""}, "sub"),
        ({"intent": "resolve", "sub": 7}, "sub"),
        ({"intent": "resolve", "sub": "b" * 256}, "sub"),
        ({"intent": "resolve", "sub": "é" * 200}, "sub"),  # 200 characters, 400 bytes
        ({"intent": "resolve", "sub": "webhook:stripe"}, "sub"),  # waitgate's own principals
        ({"intent": "resolve", "sub": "token:01JTOKEN"}, "sub"),
        ({"intent": "resolve", "ttlSeconds": 0}, "ttlSeconds"),
        ({"intent": "resolve", "ttlSeconds": MAX_TTL_SECONDS + 1}, "ttlSeconds"),
        ({"intent": "resolve", "ttlSeconds": True}, "ttlSeconds"),
        ({"intent": "resolve", "ttlSeconds": 60.0}, "ttlSeconds"),
        ({"intent": "resolve", "ttlSeconds": "60"}, "ttlSeconds"),
    ],
)
def test_a_malformed_mint_body_is_400_naming_the_member(body: Any, path: str) -> None:
    with pytest.raises(ValidationFailedError) as refused:
        parse_mint_request(body)
    assert refused.value.extensions["path"] == path


def test_a_link_names_exactly_this_interrupt_and_lasts_the_hosts_lifetime(world: World) -> None:
    # Given a pending interrupt
    world.request(CUSTOM)
    record = world.interrupt()
    # When a link is minted for bob
    link = mint(world, MintRequest("inspect", sub="bob"))
    # Then it is signed by the keyring, names the interrupt, and lasts 30 minutes
    claims = verify(link.token, world.keyring, world.clock.now())
    assert (claims.interrupt_id, claims.run_id, claims.node_id, claims.tenant_id) == (
        record.interrupt_id,
        "run-1",
        "Gate",
        "default",
    )
    assert (claims.intent, claims.sub) == ("inspect", "bob")
    assert link.url == f"{BASE_URL}/interrupts/{link.token}"
    assert link.expires_at == "2026-11-30T10:30:00Z"
    assert link.to_json() == {"token": link.token, "url": link.url, "expiresAt": link.expires_at}
    # And minting writes nothing; a second link is another token
    assert world.store.commits == 1
    assert mint(world).token != link.token


def test_the_requests_ttl_replaces_the_hosts_lifetime(world: World) -> None:
    world.request(CUSTOM)
    assert mint(world, MintRequest("resolve", ttl_seconds=60)).expires_at == "2026-11-30T10:01:00Z"


def test_a_link_never_outlives_the_interrupts_deadline(world: World) -> None:
    # Given an interrupt due in 90.5 seconds, and a clock between two seconds
    world.clock.advance(microseconds=700_000)
    world.request({**CUSTOM, "timeoutMs": 90_500})
    # Then the link ends at the deadline rounded down to the second, even with a longer ttl
    link = mint(world, MintRequest("resolve", ttl_seconds=3600))
    assert link.expires_at == "2026-11-30T10:01:31Z"
    # And at that second, the token itself has expired (410)
    with pytest.raises(InterruptExpiredError):
        verify(link.token, world.keyring, world.clock.now() + timedelta(seconds=91, microseconds=-700_000))


def test_no_link_for_what_does_not_wait(world: World) -> None:
    # Given nothing at all, Then 404 for an unknown run, node or another tenant's run
    with pytest.raises(NotFoundError):
        mint(world)
    world.request(CUSTOM)
    with pytest.raises(NotFoundError):
        mint(world, node="Elsewhere")
    with pytest.raises(NotFoundError):
        mint(world, run=RunRef("acme", "run-1"))
    # And 409 once resolved
    world.resolve({"label": "ok"})
    with pytest.raises(InterruptAlreadyResolvedError):
        mint(world)


def test_no_link_past_the_deadline_or_after_the_runs_end(world: World) -> None:
    world.request({**CUSTOM, "timeoutMs": 1000})
    world.clock.advance(seconds=1)
    with pytest.raises(InterruptAlreadyResolvedError, match="expired"):
        mint(world)
    world.request({**CUSTOM, "key": "other"}, node="Other", token="task-2")
    end_run(RUN, "completed", "SUCCEEDED", LifecycleDependencies(world.store, world.index, world.clock))
    with pytest.raises(InterruptAlreadyResolvedError, match="completed"):
        mint(world, node="Other")


def test_without_a_key_each_mint_answers_a_new_link(world: World) -> None:
    world.request(CUSTOM)
    first = mint_answer(RUN, "Gate", MintRequest("resolve"), None, world.minting())
    second = mint_answer(RUN, "Gate", MintRequest("resolve"), None, world.minting())
    assert (first.status, second.status) == (201, 201) and first.body != second.body
    assert world.store.answers == {}


def test_a_keyed_mint_gives_the_same_link_again(world: World) -> None:
    # Given a pending interrupt and a first keyed mint
    world.request(CUSTOM)
    first = keyed(world, "k-1", {"intent": "resolve"})
    assert (first.status, first.replayed) == (201, False)
    reads, saved = world.store.reads, dict(world.store.answers)
    # When the same request comes again with the same key
    again = keyed(world, "k-1", {"intent": "resolve"})
    # Then the same bytes are answered from one read, nothing is written, and the token still verifies
    assert (again.status, again.body, again.replayed) == (201, first.body, True)
    assert world.store.reads == reads + 1 and world.store.answers == saved
    assert verify(json.loads(again.body)["token"], world.keyring, world.clock.now()).intent == "resolve"


def test_a_key_reused_for_another_mint_is_422(world: World) -> None:
    world.request(CUSTOM)
    world.request({**CUSTOM, "key": "other"}, node="Other", token="task-2")
    keyed(world, "k-1", {"intent": "resolve"})
    with pytest.raises(IdempotencyKeyReusedError):
        keyed(world, "k-1", {"intent": "inspect"})
    with pytest.raises(IdempotencyKeyReusedError):
        keyed(world, "k-1", {"intent": "resolve"}, node="Other")
    # And another caller's same key is theirs alone
    bob = Caller(principal="bob", tenant_id="default", via="jwt")
    assert keyed(world, "k-1", {"intent": "inspect"}, caller=bob).status == 201


def test_a_keyed_409_is_kept_and_replayed(world: World) -> None:
    # Given a resolved interrupt, a keyed mint is refused 409 and that refusal kept
    world.request(CUSTOM)
    world.resolve({"label": "ok"})
    refused = keyed(world, "k-1", {"intent": "resolve"})
    assert refused.status == 409
    assert json.loads(refused.body)["code"] == "interrupt_already_resolved"
    # When the node waits again and the same keyed request is retried, Then it replays its 409
    world.request({**CUSTOM, "key": "again"}, token="task-2")
    again = keyed(world, "k-1", {"intent": "resolve"})
    assert (again.status, again.body, again.replayed) == (409, refused.body, True)
    # And a new key mints for the new interrupt
    assert keyed(world, "k-2", {"intent": "resolve"}).status == 201


def test_a_keyed_refusal_past_the_deadline_is_kept(world: World) -> None:
    # The run surface answers an interrupt past its deadline 409 "expired" (410 is the token surface's)
    world.request({**CUSTOM, "timeoutMs": 1000})
    world.clock.advance(seconds=1)
    refused = keyed(world, "k-1", {"intent": "resolve"})
    assert refused.status == 409 and "expired" in json.loads(refused.body)["detail"]
    assert keyed(world, "k-1", {"intent": "resolve"}).replayed


def test_a_keyed_404_is_not_kept(world: World) -> None:
    # Given a keyed mint for a node that does not wait yet
    with pytest.raises(NotFoundError):
        keyed(world, "k-1", {"intent": "resolve"})
    assert world.store.answers == {}
    # When the node waits and the same request is retried, Then it mints
    world.request(CUSTOM)
    assert keyed(world, "k-1", {"intent": "resolve"}).status == 201


def test_a_key_answered_meanwhile_replays_that_answer(world: World) -> None:
    # Given two keyed mints with one key, the other's answer landing between this one's read and write
    world.request(CUSTOM)
    other: list[Answer] = []
    world.store.race_next_write(lambda: other.append(keyed(world, "k-1", {"intent": "resolve"})))
    mine = keyed(world, "k-1", {"intent": "resolve"})
    # Then this one answers what the other did: one link for the key
    assert (mine.body, mine.replayed) == (other[0].body, True)
    assert len(world.store.answers) == 1


def test_a_key_whose_day_is_over_mints_anew(world: World) -> None:
    world.request(CUSTOM)
    first = keyed(world, "k-1", {"intent": "resolve"})
    world.clock.advance(hours=24)
    later = keyed(world, "k-1", {"intent": "resolve"})
    assert (later.status, later.replayed) == (201, False) and later.body != first.body
