"""Notifications on in-memory ports: who is told an interrupt waits (list, groups, roles, audience,
participants), each with a personal link, and a failure that is logged, never raised."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.unit.service.world import APPROVAL, CUSTOM, RUN, World, with_data
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import InterruptRecord, RunRef
from waitgate.service.notify import announce, recipients_of
from waitgate.tokens import CachedKeyring, verify

ACME = RunRef("acme", "run-1")


@pytest.fixture
def world() -> World:
    world = World()
    world.directory.add_member("acme", "group", "ops", "olga")
    world.directory.add_member("acme", "group", "ops", "oscar")
    world.directory.add_member("acme", "role", "lead", "lena")
    world.directory.add_member("acme", "role", "lead", "olga")
    world.directory.add_member("globex", "group", "ops", "gary")  # another tenant's group of that name
    return world


def requested(world: World, payload: dict[str, Any], run: RunRef = ACME) -> InterruptRecord:
    world.request(payload, run=run)
    return world.interrupt(run=run)


def recipients(world: World, payload: dict[str, Any]) -> tuple[str, ...]:
    return recipients_of(requested(world, payload), world.directory, world.ref_kinds)


def test_an_approval_tells_its_approvers_list_then_groups_then_roles_once_each(world: World) -> None:
    payload = with_data(
        APPROVAL, approversList=["ann", "olga"], approverGroupRefs=["ops"], approverRoleRefs=["lead"]
    )
    assert recipients(world, payload) == ("ann", "olga", "oscar", "lena")


def test_the_audience_replaces_the_eligibility_refs(world: World) -> None:
    payload = with_data(APPROVAL, approversList=["ann"], audience=["zoe", "ann", "zoe"])
    assert recipients(world, payload) == ("zoe", "ann")


def test_an_empty_audience_counts_as_omitted(world: World) -> None:
    assert recipients(world, with_data(APPROVAL, approversList=["ann"], audience=[])) == ("ann",)


def test_ref_kinds_the_host_does_not_advertise_name_nobody(world: World) -> None:
    world.ref_kinds = frozenset({"principal", "role"})
    payload = with_data(APPROVAL, approversList=["ann"], approverGroupRefs=["ops"], approverRoleRefs=["lead"])
    assert recipients(world, payload) == ("ann", "lena", "olga")


def test_an_open_approval_and_the_kinds_without_recipients_name_nobody(world: World) -> None:
    assert recipients(world, APPROVAL) == ()
    assert recipients(world, CUSTOM) == ()
    clarification = {
        "kind": "clarification",
        "key": "q",
        "data": {"questions": [{"id": "q1", "question": "?"}]},
    }
    assert recipients(world, clarification) == ()


def test_a_conversation_start_tells_its_participants(world: World) -> None:
    start = {
        "kind": "conversation.start",
        "key": "start",
        "data": {"conversationId": "c-1", "participants": ["pia", "pete", "pia"]},
    }
    assert recipients(world, start) == ("pia", "pete")


def test_each_recipient_gets_a_notice_with_their_own_link(world: World) -> None:
    # Given an approval for ann and the ops group
    record = requested(world, with_data(APPROVAL, approversList=["ann"], approverGroupRefs=["ops"]))
    # When announced
    assert announce(record, world.notifications(), world.clock) == 3
    # Then each notice carries what waits, and a resolve link for that recipient alone
    assert [notice.recipient for notice in world.notifier.notices] == ["ann", "olga", "oscar"]
    for notice in world.notifier.notices:
        assert (notice.run, notice.node_id, notice.interrupt_id, notice.kind, notice.title) == (
            ACME,
            "Gate",
            record.interrupt_id,
            "approval",
            "Ship?",
        )
        token = notice.link.removeprefix("https://links.example.com/interrupts/")
        claims = verify(token, world.keyring, world.clock.now())
        assert (claims.sub, claims.intent, claims.interrupt_id, claims.tenant_id) == (
            notice.recipient,
            "resolve",
            record.interrupt_id,
            "acme",
        )
        assert notice.expires_at == "2026-11-30T10:30:00Z"
    assert len({notice.link for notice in world.notifier.notices}) == 3


@pytest.mark.parametrize(
    ("data", "title"),
    [({"topic": "Plan the release"}, "Plan the release"), ({}, "")],
)
def test_a_conversations_notice_is_titled_by_its_topic(
    world: World, data: dict[str, Any], title: str
) -> None:
    start = {
        "kind": "conversation.start",
        "key": "s",
        "data": {"conversationId": "c", "participants": ["pia"]},
    }
    record = requested(world, with_data(start, **data))
    assert announce(record, world.notifications(), world.clock) == 1
    assert world.notifier.notices[0].title == title


def test_a_failed_notice_is_logged_and_the_others_are_sent(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    # Given an approval for three people, one of whom SNS refuses
    record = requested(world, with_data(APPROVAL, approversList=["ann", "bea", "cid"]))
    world.notifier.unreachable.add("bea")
    # When announced, Then nothing raises, the two others are told, and the failure is logged by code
    with caplog.at_level(logging.WARNING, logger="waitgate.service.notify"):
        assert announce(record, world.notifications(), world.clock) == 2
    assert [notice.recipient for notice in world.notifier.notices] == ["ann", "cid"]
    [warning] = caplog.records
    assert warning.getMessage() == "interrupt notice not sent"
    assert warning.__dict__["code"] == "InvalidParameter"
    assert "interrupts/" not in caplog.text  # never a link


class UnavailableDirectory:
    def memberships(self, *_: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy; retry the request.")

    def members(self, *_: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy; retry the request.")

    def delegations_to(self, *_: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy; retry the request.")

    def tenant_settings(self, *_: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy; retry the request.")


def test_a_directory_that_fails_tells_nobody_and_raises_nothing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    record = requested(world, with_data(APPROVAL, approversList=["ann"], approverGroupRefs=["ops"]))
    world.directory = UnavailableDirectory()  # type: ignore[assignment]
    with caplog.at_level(logging.WARNING, logger="waitgate.service.notify"):
        assert announce(record, world.notifications(), world.clock) == 0
    assert world.notifier.notices == []
    assert caplog.records[0].__dict__["error_type"] == "TemporarilyUnavailableError"


def test_a_broken_token_secret_tells_nobody_and_raises_nothing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    record = requested(world, with_data(APPROVAL, approversList=["ann"]))
    world.keyring = CachedKeyring(lambda: "not the secret's JSON")  # type: ignore[assignment]
    with caplog.at_level(logging.WARNING, logger="waitgate.service.notify"):
        assert announce(record, world.notifications(), world.clock) == 0
    assert world.notifier.notices == []
    assert caplog.records[0].__dict__["error_type"] == "KeyringError"


def test_a_host_without_notifications_tells_nobody(world: World) -> None:
    record = requested(world, with_data(APPROVAL, approversList=["ann"]))
    assert announce(record, None, world.clock) == 0


def test_a_request_announces_after_its_commit_and_a_take_over_does_not(world: World) -> None:
    # Given a host that notifies
    world.notifying = True
    payload = with_data(APPROVAL, approversList=["ann"])
    # When the interrupt is requested, Then ann is told once it is committed
    assert world.request(payload, run=ACME).status == "requested"
    assert [notice.recipient for notice in world.notifier.notices] == ["ann"]
    # And a retried request of the same key takes over without telling anyone again
    assert world.request(payload, run=ACME, token="task-2").status == "taken-over"
    assert len(world.notifier.notices) == 1


def test_a_request_whose_notices_all_fail_still_suspends(world: World) -> None:
    world.notifying = True
    world.notifier.unreachable.add("ann")
    assert world.request(with_data(APPROVAL, approversList=["ann"]), run=RUN).status == "requested"
    assert world.interrupt().status == "pending"


ASKABLE = with_data(APPROVAL, actions=["accept", "ask"])
ASK = {"action": "ask", "feedback": "Which region?", "decidedAt": "2026-11-30T10:00:00Z"}


def test_a_question_is_told_to_the_agent_side_after_its_commit(world: World) -> None:
    world.request(ASKABLE)
    world.resolve(ASK)
    [(run, node, interrupt_id, ask)] = world.notifier.asks
    assert (run, node, interrupt_id) == (RUN, "Gate", world.interrupt().interrupt_id)
    assert (ask["principal"], ask["feedback"]) == ("alice", "Which region?")


def test_a_question_whose_notice_fails_is_still_recorded(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    world.request(ASKABLE)
    world.notifier.asks_fail = True
    with caplog.at_level(logging.WARNING):
        assert world.resolve(ASK).status == "pending"
    assert world.interrupt().asks[0]["feedback"] == "Which region?"
    assert [record.getMessage() for record in caplog.records] == ["ask notification failed"]
