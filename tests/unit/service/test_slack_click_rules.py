"""What a Slack click must match to count (issue 26): a message waitgate posted for the interrupt it
names, with an action that message offered, by a member the resolve lets decide; the signature over
the raw bytes before anything is read, the body read bounded; Slack's values that are no time or no
node are no click — each acknowledged, and nothing changes."""

from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import quote

import pytest

from tests.unit.service.slack_world import SHARED, TS, SlackWorld, approvers_world
from tests.unit.service.world import APPROVAL, RUN, with_data
from waitgate.channels.sent_messages import SentMessage
from waitgate.errors import UnauthorizedError
from waitgate.run.records import RunRef
from waitgate.service.slack_acknowledge import SlackRequest


@pytest.fixture
def world() -> SlackWorld:
    return approvers_world()


# --- what a click must match to count (#26.1) -----------------------------------------------------
PAYMENT = {
    "kind": "external-event",
    "key": "payment",
    "data": {"eventType": "payment.succeeded", "correlation": {"orderId": "o-1"}},
}
PAY_RUN = RunRef("default", "checkout-1")


def payment_value(world: SlackWorld) -> str:
    record = world.interrupt(node="Pay", run=PAY_RUN)
    return json.dumps({"t": "default", "r": PAY_RUN.run_id, "n": "Pay", "i": record.interrupt_id})


def test_a_click_naming_a_wait_slack_never_offered_buttons_for_resolves_nothing(world: SlackWorld) -> None:
    # Given a payment wait of the same tenant, never posted to Slack
    world.request(PAYMENT, node="Pay", run=PAY_RUN, token="task-pay")
    # When a signed click on our message carries a value naming the payment wait
    reply = world.answer(world.click("accept", "U0ALICE", value=payment_value(world)))
    # Then it is acknowledged, the payment wait still waits, and the workflow was told nothing
    assert reply is not None and "not on a message waitgate sent" in reply
    assert world.interrupt(node="Pay", run=PAY_RUN).status == "pending"
    assert world.interrupt().status == "pending" and not world.workflow.successes


def test_a_message_posted_for_a_kind_without_buttons_offers_no_decision(world: SlackWorld) -> None:
    # Given the payment wait's message (had one been sent: no buttons) in the very conversation and ts
    world.request(PAYMENT, node="Pay", run=PAY_RUN, token="task-pay")
    record = world.interrupt(node="Pay", run=PAY_RUN)
    sent = SentMessage("slack", "alice", TS, SHARED, kind="external-event", buttons=())
    world.sent.record(PAY_RUN, "Pay", record.interrupt_id, sent)
    reply = world.answer(world.click("accept", "U0ALICE", value=payment_value(world)))
    assert reply is not None and "does not decide anything" in reply
    assert world.interrupt(node="Pay", run=PAY_RUN).status == "pending"


@pytest.mark.parametrize(
    "where", [{"channel": "C0ELSEWHERE"}, {"ts": "1764496000.000999"}, {"channel": ""}, {"ts": "x"}]
)
def test_a_click_on_another_conversation_or_message_than_ours_resolves_nothing(
    world: SlackWorld, where: dict[str, str]
) -> None:
    reply = world.answer(world.click("accept", "U0ALICE", **where))
    assert world.interrupt().status == "pending"
    assert reply is None or "not on a message waitgate sent" in reply


def test_an_action_the_message_did_not_offer_resolves_nothing() -> None:
    world = SlackWorld()
    world.contacts.set("alice", slack_user="U0ALICE")
    world.request(with_data(APPROVAL, approversList=["alice"]))
    world.posted(buttons=("accept",))  # its message offered Accept alone
    reply = world.answer(world.click("reject", "U0ALICE"))
    assert reply is not None and "does not decide anything" in reply
    assert world.interrupt().status == "pending"


def test_the_recipient_or_an_eligible_approver_decides_and_nobody_else(world: SlackWorld) -> None:
    # Given alice's DM of the interrupt; ben is linked but no approver, carol is an approver
    world.posted(channel="D0ALICE", ts="1764496000.000200")
    on_alices = {"channel": "D0ALICE", "ts": "1764496000.000200"}
    told = world.answer(world.click("accept", "U0BEN", **on_alices))
    assert told is not None and "not among the approvers" in told
    assert world.interrupt().status == "pending"
    # When carol clicks it / Then her decision counts: she is an approver of it
    assert world.answer(world.click("accept", "U0CAROL", **on_alices)) is None
    assert world.interrupt().resume_value["decidedBy"] == "carol"  # type: ignore[index]


def test_a_message_recorded_before_its_buttons_were_kept_offers_what_its_approval_did(
    world: SlackWorld,
) -> None:
    world.posted(channel="D0ALICE", ts="1764496000.000300", buttons=None)
    reply = world.answer(world.click("accept", "U0ALICE", channel="D0ALICE", ts="1764496000.000300"))
    assert reply is None and world.interrupt().status == "resolved"


def test_a_slack_member_mapped_to_one_of_waitgates_own_principals_is_not_linked(world: SlackWorld) -> None:
    world.contacts.set("webhook:stripe", slack_user="U0HOOK")
    reply = world.answer(world.click("accept", "U0HOOK"))
    assert reply is not None and "not linked" in reply
    assert world.interrupt().status == "pending"


# --- the signature first, the body after and bounded (#26.2) ---------------------------------------
HOSTILE_BODIES = [
    b"payload=" + b"[" * 2000 + b"]" * 2000,
    b"payload=" + quote("[" * 5000 + "]" * 5000).encode(),
    b"payload=%FF%FE",
    b"\xff\xfe\x00payload",
    b"payload=" + quote('{"a":' * 3000 + "1" + "}" * 3000).encode(),
    b"&".join(b"f%d=1" % n for n in range(50)),
    b"payload=" + quote('{"type": "block_actions", "type": "block_actions"}').encode(),
    b"x" * (1024 * 1024 + 1),
]


@pytest.mark.parametrize("body", HOSTILE_BODIES, ids=range(len(HOSTILE_BODIES)))
def test_a_hostile_body_unsigned_is_401_and_signed_is_no_click(world: SlackWorld, body: bytes) -> None:
    with pytest.raises(UnauthorizedError):
        world.answer(SlackRequest.of(body, {}))
    with pytest.raises(UnauthorizedError):
        world.answer(world.signed(body, secret="another-secret"))
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:  # not what Slack ever signs: no signature over it holds
        with pytest.raises(UnauthorizedError):
            world.answer(world.signed(body))
    else:
        assert world.answer(world.signed(body)) is None
    assert world.interrupt().status == "pending" and not world.messages.told


@pytest.mark.parametrize("tenant", ["acme", "", "a" * 65, "bad tenant!", "../default", "ü"])
def test_a_tenant_without_a_slack_app_or_no_tenant_at_all_is_401(world: SlackWorld, tenant: str) -> None:
    request = world.click("accept", "U0ALICE")
    with pytest.raises(UnauthorizedError):
        world.answer(replace(request, tenant=tenant))
    assert world.interrupt().status == "pending"


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Slack-Request-Timestamp": "²³", "X-Slack-Signature": "v0=00"},
        {"X-Slack-Request-Timestamp": "9" * 5000, "X-Slack-Signature": "v0=00"},
        {"X-Slack-Request-Timestamp": "1764496920", "X-Slack-Signature": "v0=é"},
        {"X-Slack-Request-Timestamp": "-1", "X-Slack-Signature": "v0=" + "0" * 5000},
    ],
)
def test_hostile_signature_headers_are_401(world: SlackWorld, headers: dict[str, str]) -> None:
    with pytest.raises(UnauthorizedError):
        world.answer(SlackRequest.of(b"payload=%7B%7D", headers))


def test_a_button_of_another_tenant_on_this_tenants_app_is_no_click(world: SlackWorld) -> None:
    value = json.dumps({"t": "acme", "r": RUN.run_id, "n": "Gate", "i": world.interrupt().interrupt_id})
    assert world.answer(world.click("accept", "U0ALICE", value=value)) is None
    assert world.interrupt().status == "pending"


# --- Slack's values (#26.3) ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "action_ts", ["nan", "inf", "-inf", "1e20", "abc", " ", "99999999999999.1", "-1.5", "1764496920.", "١٧٦٤"]
)
def test_an_action_ts_that_is_no_time_is_refused_cleanly(world: SlackWorld, action_ts: str) -> None:
    assert world.answer(world.click("accept", "U0ALICE", action_ts)) is None
    assert world.interrupt().status == "pending"


@pytest.mark.parametrize("node", ["N" * 81, "", "N" * 5000])
def test_a_node_id_no_node_can_have_is_no_click_not_a_404(world: SlackWorld, node: str) -> None:
    value = json.dumps({"t": "default", "r": RUN.run_id, "n": node, "i": world.interrupt().interrupt_id})
    assert world.answer(world.click("accept", "U0ALICE", value=value)) is None
    assert world.interrupt().status == "pending"
