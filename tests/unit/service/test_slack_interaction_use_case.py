"""A Slack click on the one resolve path, acknowledged and then decided (`SlackWorld.answer` runs both
as the two functions do): Slack's signature first (401 for forged, stale, replayed), then the
workspace, the member's principal, and the decision — exactly once, however often Slack delivers the
click; whoever did not simply decide is told why."""

from __future__ import annotations

import pytest

from tests.unit.service.slack_world import SHARED, SlackWorld, approvers_world
from tests.unit.service.world import APPROVAL, RUN, with_data
from waitgate.errors import UnauthorizedError


@pytest.fixture
def world() -> SlackWorld:
    return approvers_world()


def test_accept_resolves_as_the_members_principal_and_needs_no_reply(world: SlackWorld) -> None:
    assert world.answer(world.click("accept", "U0ALICE")) is None
    record = world.interrupt()
    assert record.status == "resolved" and record.resume_value is not None
    assert (record.resume_value["action"], record.resume_value["decidedBy"]) == ("accept", "alice")
    assert record.resume_value["decidedAt"] == "2025-11-30T10:02:00.000Z"
    assert not world.messages.told


@pytest.mark.parametrize("wrong", [{"secret": "another-secret"}, {"age": 301}, {"age": -301}])
def test_a_forged_or_stale_signature_is_401_and_changes_nothing(
    world: SlackWorld, wrong: dict[str, object]
) -> None:
    with pytest.raises(UnauthorizedError):
        world.answer(world.click("accept", "U0ALICE", **wrong))
    assert world.interrupt().status == "pending" and not world.messages.told


def test_the_same_signed_request_twice_is_a_replay(world: SlackWorld) -> None:
    request = world.click("accept", "U0ALICE")
    world.answer(request)
    with pytest.raises(UnauthorizedError):
        world.answer(request)


def test_slacks_retry_of_a_click_is_the_same_request(world: SlackWorld) -> None:
    world.store.interrupts[(RUN, "Gate")] = world.interrupt().__class__(
        **{
            **world.interrupt().__dict__,
            "payload": with_data(APPROVAL, approversList=["alice", "carol"], requiredApprovals=2),
        }
    )
    first = world.answer(world.click("accept", "U0ALICE"))
    world.clock.advance(seconds=1)  # the retry is signed anew
    again = world.answer(world.click("accept", "U0ALICE"))
    assert first == again and first is not None and "recorded" in first
    assert len(world.interrupt().votes) == 1


def test_a_member_who_may_not_approve_is_told_and_nothing_is_resolved(world: SlackWorld) -> None:
    reply = world.answer(world.click("accept", "U0BEN"))
    assert reply is not None and "not among the approvers" in reply
    assert world.messages.told == [(SHARED, "U0BEN", reply)]
    assert world.interrupt().status == "pending"


def test_a_member_of_no_principal_or_of_another_workspace_is_told(world: SlackWorld) -> None:
    unknown = world.answer(world.click("accept", "U0NOBODY"))
    other = world.answer(world.click("accept", "U0ALICE", "1764496920.000002", team="T0OTHER"))
    assert unknown is not None and "not linked" in unknown
    assert other is not None and "another Slack workspace" in other
    assert world.interrupt().status == "pending"


def test_the_loser_of_a_race_and_a_late_click_are_told(world: SlackWorld) -> None:
    world.answer(world.click("accept", "U0ALICE"))
    late = world.answer(world.click("reject", "U0CAROL"))
    assert late is not None and "already decided" in late
    assert world.interrupt().resume_value["action"] == "accept"  # type: ignore[index]


def test_a_click_after_the_deadline_is_told_it_is_no_longer_open() -> None:
    world = SlackWorld()
    world.contacts.set("alice", slack_user="U0ALICE")
    world.request(with_data(APPROVAL, approversList=["alice"]) | {"timeoutMs": 60_000})
    world.posted()
    world.clock.advance(minutes=2)
    reply = world.answer(world.click("accept", "U0ALICE"))
    assert reply is not None and "no longer open" in reply
    assert world.interrupt().status == "pending"


def test_the_page_button_decides_nothing(world: SlackWorld) -> None:
    assert world.answer(world.click("open-page", "U0ALICE")) is None
    assert world.interrupt().status == "pending"
