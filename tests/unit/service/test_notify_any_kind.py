"""`notify` beside an interrupt of any kind: the named people are told, each with a personal link;
for a kind other than approval they alone may answer (fails closed); a bad `notify` fails the task by
name and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.service.world import APPROVAL, CUSTOM, RUN, World, with_data
from waitgate.errors import ForbiddenError
from waitgate.run.identity import Caller
from waitgate.service.notify import recipients_of
from waitgate.tokens import verify

CLARIFY: dict[str, Any] = {
    "kind": "clarification",
    "key": "q",
    "data": {"questions": [{"id": "region", "question": "Which region?"}]},
}
ANSWER = {"answers": {"region": "eu-west-1"}}


def caller(name: str) -> Caller:
    return Caller(principal=name, tenant_id="default", via="jwt")


@pytest.fixture
def world() -> World:
    world = World()
    world.notifying = True
    world.directory.add_member("default", "group", "ops", "olga")
    world.directory.add_member("default", "role", "lead", "lena")
    return world


def test_a_clarification_tells_the_people_its_task_names_each_with_a_link(world: World) -> None:
    notify = {"principals": ["alice"], "groupRefs": ["ops"], "roleRefs": ["lead"]}
    assert world.request(CLARIFY, notify=notify).status == "requested"
    assert world.interrupt().notify == notify
    assert [notice.recipient for notice in world.notifier.notices] == ["alice", "olga", "lena"]
    for notice in world.notifier.notices:
        token = notice.link.removeprefix("https://links.example.com/interrupts/")
        claims = verify(token, world.keyring, world.clock.now())
        assert (claims.sub, claims.intent) == (notice.recipient, "resolve")


def test_notify_adds_people_to_tell_to_an_approval_and_a_conversation(world: World) -> None:
    world.request(with_data(APPROVAL, approversList=["ann"]), notify={"principals": ["zoe", "ann"]})
    assert recipients_of(world.interrupt(), world.directory, world.ref_kinds) == ("ann", "zoe")
    start = {
        "kind": "conversation.start",
        "key": "s",
        "data": {"conversationId": "c", "participants": ["pia"]},
    }
    world.request(start, node="Talk", notify={"principals": ["zoe"]})
    assert recipients_of(world.interrupt("Talk"), world.directory, world.ref_kinds) == ("pia", "zoe")


def test_only_the_named_people_may_answer_another_kind(world: World) -> None:
    world.request(CLARIFY, notify={"principals": ["alice"], "groupRefs": ["ops"]})
    with pytest.raises(ForbiddenError, match="not among the people this interrupt asks"):
        world.resolve(ANSWER, caller=caller("mallory"))
    assert world.interrupt().status == "pending"
    assert world.resolve(ANSWER, caller=caller("olga")).status == "resolved"  # a member of ops


def test_an_unadvertised_ref_kind_names_nobody_who_may_answer(world: World) -> None:
    world.ref_kinds = frozenset({"principal"})
    world.request(CUSTOM, notify={"groupRefs": ["ops"]})
    with pytest.raises(ForbiddenError):
        world.resolve({"label": "x"}, caller=caller("olga"))


def test_without_notify_another_kind_stays_open_and_names_nobody(world: World) -> None:
    world.request(CLARIFY)
    assert world.notifier.notices == []
    assert world.resolve(ANSWER, caller=caller("anyone")).status == "resolved"


def test_a_malformed_notify_fails_the_task_by_name_and_writes_nothing(world: World) -> None:
    assert world.request(CLARIFY, notify={"principals": "alice"}).status == "rejected"
    [(token, error, cause)] = world.workflow.failures
    assert (token, error) == ("task-1", "InterruptPayloadInvalid")
    assert cause.endswith("(at notify.principals)")
    assert (RUN, "Gate") not in world.store.interrupts
    assert world.log() == []
    assert world.notifier.notices == []
