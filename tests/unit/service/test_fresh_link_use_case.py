"""requestFreshLink on in-memory ports: a fresh link by e-mail goes only to the person an expired link
was made for, while the request waits for them, at most once per 5 minutes; anything else sends
nothing (and the handler answers the same 202 whatever the outcome)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.fakes.channels import MemoryContacts, MemoryFreshLinks
from tests.unit.service.world import APPROVAL, RUN, World, with_data
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import InterruptRecord
from waitgate.service.fresh_link import FreshLinkDependencies, request_fresh_link
from waitgate.service.mint_token import LinkSettings
from waitgate.service.notify import NotificationDependencies
from waitgate.tokens import TokenClaims, mint

NOTICE_LINKS = LinkSettings(timedelta(hours=168), "https://links.example.com")


class Fresh:
    def __init__(self, world: World) -> None:
        self.world = world
        self.contacts = MemoryContacts()
        self.sent = MemoryFreshLinks()

    def deps(self) -> FreshLinkDependencies:
        world = self.world
        notifications = NotificationDependencies(
            world.notifier, world.keyring, world.directory, world.ref_kinds, NOTICE_LINKS
        )
        return FreshLinkDependencies(
            store=world.store,
            clock=world.clock,
            notifications=notifications,
            contacts=self.contacts,
            sent=self.sent,
            approval=ApprovalConfig(ref_kinds=world.ref_kinds),
        )

    def expired(self, sub: str | None = "alice", intent: str = "resolve", node: str = "Gate") -> str:
        record = self.world.interrupt(node)
        moment = (self.world.clock.now() - timedelta(minutes=1)).replace(microsecond=0)
        claims = TokenClaims(
            record.interrupt_id,
            RUN.run_id,
            node,
            RUN.tenant_id,
            intent,
            moment,
            sub=sub,  # type: ignore[arg-type]
        )
        return mint(claims, self.world.keyring)

    def ask(self, token: str) -> str:
        return request_fresh_link(token, self.deps())


@pytest.fixture
def fresh() -> Fresh:
    world = World()
    found = Fresh(world)
    found.contacts.set("alice", email="alice@example.com")
    found.contacts.set("bob", email="bob@example.com")
    found.contacts.set("watcher", email="watcher@example.com")
    found.contacts.set("slacker", slack_user="U0SLACK")
    return found


def approval(fresh: Fresh, **data: Any) -> InterruptRecord:
    fresh.world.request(with_data(APPROVAL, **data))
    return fresh.world.interrupt()


def test_the_link_s_person_gets_one_fresh_link_by_e_mail_until_the_deadline(fresh: Fresh) -> None:
    # Given alice's expired link to a 4-hour approval she may decide
    approval(fresh, approversList=["alice"])
    fresh.world.store.interrupts[(RUN, "Gate")] = record = _with_deadline(fresh, hours=4)
    # When she asks for a fresh link
    assert fresh.ask(fresh.expired()) == "sent"
    # Then one notice, for her, by e-mail only, with a link until the deadline
    (notice,) = fresh.world.notifier.notices
    assert (notice.recipient, notice.notice, notice.channels) == ("alice", "interrupt.fresh-link", ("email",))
    assert notice.expires_at == "2026-11-30T14:00:00Z" and record.deadline == "2026-11-30T14:00:00.000Z"
    assert notice.subject.startswith("New link: Approval needed: Ship?")


def test_at_most_one_fresh_link_per_five_minutes(fresh: Fresh) -> None:
    approval(fresh, approversList=["alice"])
    token = fresh.expired()
    assert fresh.ask(token) == "sent"
    fresh.world.clock.advance(minutes=4, seconds=59)
    assert fresh.ask(token) == "too-soon"
    fresh.world.clock.advance(seconds=1)
    assert fresh.ask(token) == "sent"
    assert len(fresh.world.notifier.notices) == 2


@pytest.mark.parametrize(
    ("sub", "intent", "outcome"),
    [
        ("watcher", "resolve", "not-waiting-for-them"),  # told (audience), never eligible
        ("carol", "resolve", "not-waiting-for-them"),  # named nowhere
        ("slacker", "resolve", "no-email"),  # an approver, reachable only on Slack
        (None, "resolve", "refused"),  # a link without a person
        ("alice", "inspect", "refused"),  # an inspect-only link
    ],
)
def test_nothing_is_sent_to_whom_the_request_does_not_wait_for_by_e_mail(
    fresh: Fresh, sub: str | None, intent: str, outcome: str
) -> None:
    approval(fresh, approversList=["alice", "slacker"], audience=["alice", "watcher", "slacker"])
    assert fresh.ask(fresh.expired(sub=sub, intent=intent)) == outcome
    assert fresh.world.notifier.notices == []


def test_nothing_is_sent_for_a_token_this_host_did_not_sign(fresh: Fresh) -> None:
    approval(fresh, approversList=["alice"])
    token = fresh.expired()
    assert fresh.ask(token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")) == "refused"
    assert fresh.ask("hello") == "refused"
    assert fresh.world.notifier.notices == []


def test_nothing_is_sent_once_the_person_voted_or_the_request_no_longer_waits(fresh: Fresh) -> None:
    # Given a 2-of-2 approval bob voted on
    approval(fresh, approversList=["alice", "bob"], requiredApprovals=2)
    from tests.unit.service.world import ACCEPT
    from waitgate.run.identity import Caller

    fresh.world.resolve(ACCEPT, caller=Caller(principal="bob", tenant_id="default", via="jwt"))
    assert fresh.ask(fresh.expired(sub="bob")) == "not-waiting-for-them"
    # When alice decides it too / Then nobody gets a fresh link any more
    fresh.world.resolve(ACCEPT)
    assert fresh.ask(fresh.expired(sub="alice")) == "not-waiting"
    assert fresh.world.notifier.notices == []


def test_nothing_is_sent_past_the_deadline(fresh: Fresh) -> None:
    approval(fresh, approversList=["alice"])
    fresh.world.store.interrupts[(RUN, "Gate")] = _with_deadline(fresh, hours=1)
    fresh.world.clock.advance(hours=1)
    assert fresh.ask(fresh.expired()) == "not-waiting"


class UnreadableDirectory:
    def memberships(self, *args: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy.")

    def members(self, *args: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy.")

    def delegations_to(self, *args: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy.")

    def tenant_settings(self, *args: Any) -> Any:
        raise TemporarilyUnavailableError("The directory is busy.")


def test_eligibility_fails_closed_when_the_directory_cannot_be_read(fresh: Fresh) -> None:
    # Given an approval open to a group alice is in, and a directory that cannot be read
    fresh.world.directory.add_member("default", "group", "release", "alice")
    approval(fresh, approverGroupRefs=["release"])
    fresh.world.directory = UnreadableDirectory()  # type: ignore[assignment]
    # Then nothing is sent
    assert fresh.ask(fresh.expired()) == "failed"
    assert fresh.world.notifier.notices == []


def _with_deadline(fresh: Fresh, *, hours: int) -> InterruptRecord:
    from dataclasses import replace

    from waitgate.run.clock import rfc3339

    deadline = rfc3339((fresh.world.clock.now() + timedelta(hours=hours)).astimezone(UTC))
    return replace(fresh.world.interrupt(), deadline=deadline)


def test_a_notification_link_lasts_until_the_deadline_at_most_the_configured_maximum() -> None:
    # The rule every notice's link follows (link_for with the NotificationLinkMaxHours settings)
    from waitgate.tokens import expires_at_for

    now = datetime(2026, 11, 30, 10, 0, 0, 500_000, tzinfo=UTC)
    most = NOTICE_LINKS.lifetime
    in_four_hours = now + timedelta(hours=4)
    assert expires_at_for(now, most, in_four_hours) == in_four_hours.replace(microsecond=0)
    assert expires_at_for(now, most, now + timedelta(days=30)) == datetime(2026, 12, 7, 10, 0, tzinfo=UTC)
    assert expires_at_for(now, most, None) == datetime(2026, 12, 7, 10, 0, tzinfo=UTC)
