"""E-mail and Slack on the local stack (issue 16, "How we will know"): each recipient's own link by
SES (on moto) and by Slack (the stand-in); a signed click is answered 200 at once and decided after by
the Slack decider, exactly once through the one resolve path, and updates every message; a forged,
stale or replayed request is 401; an ineligible clicker is told why, only they; a quorum completes by
clicks; a failing channel parks the notice and leaves the suspension intact. Principals get fresh
names, so no other test's inbox changes."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from typing import Any

import pytest

from tests.e2e.acting_as_slack import (
    TEAM,
    People,
    approval,
    clicks_decided,
    delivered,
    events,
    finished,
    interrupt_status,
    of_type,
    post_interaction,
    press,
    slack_calls,
    standin_failures,
    start,
    token_subject,
    updated_message,
    wait_for,
)
from tests.e2e.conftest import LocalStackHandle
from tests.support.slack_requests import button, click_body, signed_headers

pytestmark = pytest.mark.e2e


def test_alice_gets_one_email_and_one_slack_message_and_accepts_in_slack(
    local_stack: LocalStackHandle,
) -> None:
    # Given alice with an e-mail address and a Slack id, asked to approve
    people = People(local_stack, "alice")
    alice = people["alice"]
    run_id, arn = start(local_stack, approval([alice]))
    # When the notices went out
    email = delivered(local_stack, run_id, alice, "email")
    slack = delivered(local_stack, run_id, alice, "slack")
    sns = delivered(local_stack, run_id, alice, "sns")
    # Then she has one e-mail and one Slack message, each with her own link (the one link minted for her)
    assert email["link"] == slack["link"] == sns["link"] and token_subject(email["link"]) == alice
    assert (
        email["link"] in email["text"]
        and email["link"] in email["html"]
        and email["subject"] == sns["subject"]
    )
    message = slack["message"]
    assert message["channel"].startswith("D") and message["ts"]
    ids = [
        element["action_id"]
        for block in message["blocks"]
        if block["type"] == "actions"
        for element in block["elements"]
    ]
    assert ids == ["waitgate:accept", "waitgate:reject", "waitgate:open-page"]
    assert button(message["blocks"], "waitgate:open-page")["url"] == slack["link"]
    # When she presses Accept in Slack (signed with the local signing secret, the button echoed back)
    status, body = press(local_stack, message, "accept", people.slack["alice"])
    # Then Slack gets 200 at once, and the run is resolved exactly once, as alice
    assert (status, body) == (200, b"")
    output = json.loads(finished(local_stack, arn)["output"])
    assert output["action"] == "accept" and output["decidedBy"] == alice
    assert len(of_type(events(local_stack, run_id), "interrupt.resolved")) == 1
    # And her Slack message says so, with no buttons left
    update = updated_message(local_stack, message)
    assert f"Accepted by {alice} at" in update["text"]
    assert not [block for block in update["blocks"] if block["type"] == "actions"]
    assert f"Accepted by {alice} at" in json.dumps(
        delivered(local_stack, run_id, alice, "slack")["message"]["blocks"]
    )
    # And each delivery is a debug event
    sent = of_type(events(local_stack, run_id), "notification.sent")
    assert sorted((e["payload"]["channel"], e["payload"]["recipient"]) for e in sent) == [
        ("email", alice),
        ("slack", alice),
    ]


def test_a_forged_stale_or_replayed_click_is_401_and_changes_nothing(local_stack: LocalStackHandle) -> None:
    # Given alice's Slack message for a pending approval
    people = People(local_stack, "alice")
    run_id, _ = start(local_stack, approval([people["alice"]]))
    message = delivered(local_stack, run_id, people["alice"], "slack")["message"]
    secret = local_stack.description["slack"]["signingSecret"]
    pressed = button(message["blocks"], "waitgate:accept")
    body = click_body(pressed, people.slack["alice"], message["channel"], message["ts"], TEAM)
    # When the click comes signed with another secret, signed 6 minutes ago, or unsigned
    forged = post_interaction(local_stack, body, signed_headers(body, "not-the-signing-secret"))
    stale = post_interaction(local_stack, body, signed_headers(body, secret, int(time.time()) - 360))
    unsigned = post_interaction(local_stack, body, {"Content-Type": "application/x-www-form-urlencoded"})
    tampered_headers = signed_headers(body, secret)
    tampered = post_interaction(local_stack, body.replace("accept", "reject"), tampered_headers)
    # Then each is 401 problem+json, and the interrupt still waits
    for status, answer in (forged, stale, unsigned, tampered):
        assert status == 401 and json.loads(answer)["code"] == "unauthorized"
    assert interrupt_status(local_stack, run_id) == "pending"
    # When a rightly signed request is sent twice, byte for byte
    headers = signed_headers(body, secret)
    first = post_interaction(local_stack, body, headers)
    replayed = post_interaction(local_stack, body, headers)
    # Then the first resolves and the replay is 401
    assert first[0] == 200 and replayed[0] == 401
    wait_for(lambda: True if interrupt_status(local_stack, run_id) == "resolved" else None)


def test_slacks_retry_of_a_click_resolves_once(local_stack: LocalStackHandle) -> None:
    # Given a 2-of-2 approval and ann's Slack message
    people = People(local_stack, "ann", "bo")
    run_id, _ = start(local_stack, approval([people["ann"], people["bo"]], requiredApprovals=2))
    message = delivered(local_stack, run_id, people["ann"], "slack")["message"]
    # When Slack delivers ann's click twice (a retry: signed anew, the same action_ts)
    action_ts = f"{time.time():.6f}"
    first = press(local_stack, message, "accept", people.slack["ann"], action_ts=action_ts)
    retry = press(
        local_stack,
        message,
        "accept",
        people.slack["ann"],
        action_ts=action_ts,
        timestamp=int(time.time()) + 1,
    )
    # Then both are 200, and once both are decided one vote is recorded, and ann is not told she voted twice
    assert first[0] == retry[0] == 200
    clicks_decided(local_stack)
    assert len(of_type(events(local_stack, run_id), "interrupt.voted")) == 1
    told = [
        c["arguments"]["text"]
        for c in slack_calls(local_stack, "chat.postEphemeral")
        if c["arguments"]["user"] == people.slack["ann"]
    ]
    assert told and all("already voted" not in text for text in told)


def test_ben_who_may_not_approve_is_told_why_and_nothing_is_resolved(local_stack: LocalStackHandle) -> None:
    # Given an approval for alice only, and ben linked to Slack too
    people = People(local_stack, "alice", "ben")
    run_id, _ = start(local_stack, approval([people["alice"]]))
    message = delivered(local_stack, run_id, people["alice"], "slack")["message"]
    # When ben presses Accept (say, in a channel the message was shared to)
    status, _ = press(local_stack, message, "accept", people.slack["ben"])
    # Then Slack gets 200, ben alone is told he is not an approver, and nothing is resolved
    assert status == 200

    def told() -> list[dict[str, Any]] | None:
        calls = [
            c["arguments"]
            for c in slack_calls(local_stack, "chat.postEphemeral")
            if c["arguments"]["user"] == people.slack["ben"]
        ]
        return calls or None

    (ephemeral,) = wait_for(told)
    assert "not among the approvers" in ephemeral["text"] and ephemeral["channel"] == message["channel"]
    assert interrupt_status(local_stack, run_id) == "pending"
    assert not of_type(events(local_stack, run_id), "interrupt.resolved")


def test_a_two_of_three_quorum_completes_by_two_slack_clicks(local_stack: LocalStackHandle) -> None:
    # Given a 2-of-3 approval, each approver on Slack
    people = People(local_stack, "ann", "bo", "cy")
    run_id, arn = start(local_stack, approval([people[n] for n in ("ann", "bo", "cy")], requiredApprovals=2))
    messages = {
        name: delivered(local_stack, run_id, people[name], "slack")["message"] for name in ("ann", "bo", "cy")
    }
    # When ann presses Accept: her vote is recorded, and the request still waits for more
    assert press(local_stack, messages["ann"], "accept", people.slack["ann"])[0] == 200
    wait_for(lambda: of_type(events(local_stack, run_id), "interrupt.voted") or None, what="ann's vote")
    assert interrupt_status(local_stack, run_id) == "pending"
    # And bo presses Accept
    assert press(local_stack, messages["bo"], "accept", people.slack["bo"])[0] == 200
    # Then the run goes on with both votes
    output = json.loads(finished(local_stack, arn)["output"])
    assert [(v["principal"], v["action"]) for v in output["votes"]] == [
        (people["ann"], "accept"),
        (people["bo"], "accept"),
    ]
    # And all three messages say who accepted, without buttons
    for name in ("ann", "bo", "cy"):
        update = updated_message(local_stack, messages[name])
        assert f"Accepted by {people['ann']} and {people['bo']} at" in update["text"]
        assert not [block for block in update["blocks"] if block["type"] == "actions"]
    # And cy, pressing late, is told it was decided already
    assert press(local_stack, messages["cy"], "accept", people.slack["cy"])[0] == 200

    def told_cy() -> str | None:
        texts = [
            c["arguments"]["text"]
            for c in slack_calls(local_stack, "chat.postEphemeral")
            if c["arguments"]["user"] == people.slack["cy"]
        ]
        return texts[-1] if texts else None

    assert "already decided" in wait_for(told_cy)
    assert len(of_type(events(local_stack, run_id), "interrupt.resolved")) == 1


def test_a_failing_slack_parks_the_notice_and_leaves_the_suspension_intact(
    local_stack: LocalStackHandle,
) -> None:
    # Given Slack answering errors for dana's DM
    people = People(local_stack, "dana")
    standin_failures(
        local_stack, "POST", {"channel": people.slack["dana"], "status": 500, "error": "internal_error"}
    )
    try:
        run_id, arn = start(local_stack, approval([people["dana"]]))

        # When the Slack deliverer has tried as often as it may
        def parked() -> list[dict[str, Any]] | None:
            failed = of_type(events(local_stack, run_id), "notification.failed")
            return failed if any(e["payload"]["parked"] for e in failed) else None

        failed = wait_for(parked)
    finally:
        standin_failures(local_stack, "DELETE")
    # Then every attempt failed and was said, the last one parked
    assert [e["payload"]["attempt"] for e in failed] == [1, 2, 3]
    assert {e["payload"]["channel"] for e in failed} == {"slack"}
    # And the notice waits on the parking queue
    sqs = local_stack.client("sqs")
    parking = local_stack.description["queueUrls"]["NotificationsParkingQueue"]

    def on_the_parking_queue() -> dict[str, Any] | None:
        for message in sqs.receive_message(QueueUrl=parking, MaxNumberOfMessages=10, VisibilityTimeout=0).get(
            "Messages", []
        ):
            notice = json.loads(message["Body"])
            if notice.get("runId") == run_id:
                return dict(notice)
        return None

    notice = wait_for(on_the_parking_queue)
    assert (notice["recipient"], notice["kind"]) == (people["dana"], "interrupt.requested")
    # And the suspension is intact: dana's e-mail came, the run still waits, and her link still works
    email = delivered(local_stack, run_id, people["dana"], "email")
    assert interrupt_status(local_stack, run_id) == "pending"
    assert local_stack.sfn.describe_execution(executionArn=arn)["status"] == "RUNNING"
    answer = local_stack.http.post(
        email["link"].removeprefix(local_stack.api_url),
        {"resumeValue": {"action": "accept", "decidedAt": "2026-12-01T10:00:00Z"}},
    )
    assert answer.status == 200
    finished(local_stack, arn)


def test_a_recipient_without_contact_points_is_a_skipped_notification(local_stack: LocalStackHandle) -> None:
    # Given an approver nobody gave a contact point
    nobody = f"nobody-{uuid.uuid4().hex[:6]}"
    run_id, _ = start(local_stack, approval([nobody]))

    # When the notices went out, Then the run's debug events say why nobody was reached
    def skipped() -> list[dict[str, Any]] | None:
        return of_type(events(local_stack, run_id), "notification.skipped") or None

    (event,) = wait_for(skipped)
    assert event["payload"]["recipient"] == nobody and "no contact point" in event["payload"]["reason"]
    # And the SNS notice went out all the same
    assert delivered(local_stack, run_id, nobody, "sns")["link"]


def _signed_raw(stack: LocalStackHandle, raw: bytes) -> dict[str, str]:
    secret = stack.description["slack"]["signingSecret"]
    stamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), f"v0:{stamp}:".encode() + raw, hashlib.sha256).hexdigest()
    return {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": f"v0={digest}",
    }


def test_a_signed_click_naming_a_payment_wait_resolves_nothing(local_stack: LocalStackHandle) -> None:
    # Given alice's Slack message of an approval, and a payment wait of the same tenant
    people = People(local_stack, "alice")
    run_id, _ = start(local_stack, approval([people["alice"]]))
    message = delivered(local_stack, run_id, people["alice"], "slack")["message"]
    payment_run, _ = start(
        local_stack,
        {
            "kind": "external-event",
            "key": "pay",
            "data": {"eventType": "payment.settled", "correlation": "o-9"},
        },
    )
    payment = wait_for(lambda: _node(local_stack, payment_run))
    # When a signed click on alice's message carries a value naming the payment wait
    pressed = button(message["blocks"], "waitgate:accept")
    value = {"t": "default", "r": payment_run, "n": "Interrupt", "i": payment["interruptId"]["S"]}
    pressed["value"] = json.dumps(value)
    body = click_body(pressed, people.slack["alice"], message["channel"], message["ts"], TEAM)
    status, answer = post_interaction(local_stack, body, signed_headers(body, _secret(local_stack)))
    # Then Slack gets 200, and once the click is decided the payment still waits, as does the approval
    assert (status, answer) == (200, b"")
    clicks_decided(local_stack)
    assert interrupt_status(local_stack, payment_run) == "pending"
    assert interrupt_status(local_stack, run_id) == "pending"


def test_hostile_bytes_before_the_signature_are_401_and_signed_odd_values_are_200(
    local_stack: LocalStackHandle,
) -> None:
    people = People(local_stack, "alice")
    run_id, _ = start(local_stack, approval([people["alice"]]))
    message = delivered(local_stack, run_id, people["alice"], "slack")["message"]
    # Given 2,000 nested arrays and a body that is not UTF-8, from anyone / Then 401, never a 500
    for raw in (b"payload=" + b"[" * 2000 + b"]" * 2000, b"payload=\xff\xfe\xfd"):
        answer = local_stack.http.request(
            "POST",
            "/channels/slack/interactions",
            data=raw,
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert (answer.status, answer.json()["code"]) == (401, "unauthorized"), answer.body
        signed = local_stack.http.request(
            "POST", "/channels/slack/interactions", data=raw, headers=_signed_raw(local_stack, raw)
        )
        assert signed.status in (200, 401), signed.body  # signed nested: no click; not UTF-8: never Slack's
    # And Slack-signed clicks with an action_ts that is no time, or a node id no node has: 200, nothing
    pressed = button(message["blocks"], "waitgate:accept")
    long_node = dict(pressed, value=json.dumps({**json.loads(pressed["value"]), "n": "N" * 81}))
    for action_ts, which in [
        ("nan", pressed),
        ("inf", pressed),
        ("1e20", pressed),
        ("abc", pressed),
        (None, long_node),
    ]:
        body = click_body(which, people.slack["alice"], message["channel"], message["ts"], TEAM, action_ts)
        status, answer = post_interaction(local_stack, body, signed_headers(body, _secret(local_stack)))
        assert (status, answer) == (200, b""), (action_ts, answer)
    clicks_decided(local_stack)
    assert interrupt_status(local_stack, run_id) == "pending"
    # And the tenant named in the URL is the one whose secret checks: another has none, so 401
    body = click_body(pressed, people.slack["alice"], message["channel"], message["ts"], TEAM)
    answer = local_stack.http.request(
        "POST",
        "/channels/slack/interactions?tenant=acme",
        data=body.encode(),
        headers=signed_headers(body, _secret(local_stack)),
    )
    assert answer.status == 401


def _secret(stack: LocalStackHandle) -> str:
    return str(stack.description["slack"]["signingSecret"])


def _node(stack: LocalStackHandle, run_id: str) -> dict[str, Any] | None:
    item = stack.dynamodb.get_item(
        TableName=stack.table_names["InterruptsTable"],
        Key={"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "NODE#Interrupt"}},
        ConsistentRead=True,
    ).get("Item")
    return dict(item) if item else None
