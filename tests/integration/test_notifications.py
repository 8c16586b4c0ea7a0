"""Per-recipient notifications on moto: SNS -> an SQS inbox, one message per recipient, each with a
personal resolve link that works for that recipient only; links are never logged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, sample_event
from tests.support.links import BROWSER_ACCEPT, Inbox, token_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


@pytest.fixture
def harness(inbox: Inbox) -> WorkflowHarness:
    return WorkflowHarness()


def approval(**data: Any) -> dict[str, Any]:
    return {**APPROVAL, "data": {**APPROVAL["data"], **data}}


def requested(harness: WorkflowHarness, interrupt: dict[str, Any]) -> SuspendedRun:
    run = harness.suspend(interrupt)
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    return run


def notices(inbox: Inbox) -> dict[str, dict[str, Any]]:
    """recipient -> {attributes, subject, document}, from the SNS envelopes the queue received."""
    received = {}
    for envelope in inbox.envelopes():
        attributes = {name: value["Value"] for name, value in envelope["MessageAttributes"].items()}
        document = json.loads(envelope["Message"])
        received[attributes["recipient"]] = {
            "attributes": attributes,
            "subject": envelope["Subject"],
            "document": document,
        }
    return received


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def test_each_approver_gets_one_message_with_a_personal_link(harness: WorkflowHarness, inbox: Inbox) -> None:
    # Given an approval naming two approvers and no audience
    run = requested(harness, approval(approversList=["alice", "bob"]))
    # When we read the inbox subscribed to the topic
    received = notices(inbox)
    # Then alice and bob each got one message with filterable attributes, a subject and a JSON body
    assert set(received) == {"alice", "bob"}
    alice = received["alice"]
    assert alice["attributes"] == {
        "recipient": "alice",
        "kind": "approval",
        "tenantId": "default",
        "runId": run.run_id,
        "notice": "interrupt.requested",
    }
    assert alice["subject"] == "Approval needed: Ship release 2026-11-30 to production?"
    document = alice["document"]
    assert (document["recipient"], document["runId"], document["nodeId"]) == (
        "alice",
        run.run_id,
        "Interrupt",
    )
    assert document["link"].startswith("https://links.example.com/interrupts/ow2.hs256.k1.")
    assert received["bob"]["document"]["link"] != document["link"]
    # And alice's link resolves as alice
    answer = Handler("resolve_by_token")(
        token_event(token_of(document["link"]), method="POST", body={"resumeValue": ACCEPT})
    )
    assert answer["statusCode"] == 200
    assert json.loads(answer["body"])["resumeValue"]["decidedBy"] == "alice"


def test_a_link_for_someone_not_eligible_cannot_decide(harness: WorkflowHarness, inbox: Inbox) -> None:
    # Given an audience (a notification hint) wider than the approvers list
    requested(harness, approval(approversList=["alice"], audience=["alice", "watcher"]))
    received = notices(inbox)
    assert set(received) == {"alice", "watcher"}
    # When the watcher's link tries to accept
    link = received["watcher"]["document"]["link"]
    answer = Handler("resolve_by_token")(
        token_event(token_of(link), method="POST", body={"resumeValue": ACCEPT})
    )
    # Then 403: audience is never eligibility
    assert answer["statusCode"] == 403


def test_group_members_and_role_holders_are_notified_from_the_directory(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given a directory where carol is in group "release" and dave holds role "sre"
    from waitgate.wiring import composition

    directory = composition.directory()
    directory.add_member("default", "group", "release", "carol")
    directory.add_member("default", "role", "sre", "dave")
    # When an approval names the list, the group and the role (no audience)
    requested(
        harness, approval(approversList=["alice"], approverGroupRefs=["release"], approverRoleRefs=["sre"])
    )
    # Then the union is notified, one message each
    assert set(notices(inbox)) == {"alice", "carol", "dave"}


def test_a_take_over_and_a_kind_without_recipients_notify_nobody(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given an approval whose request is retried with the same key (a new task token takes over)
    run = requested(harness, approval(approversList=["alice"]))
    assert set(notices(inbox)) == {"alice"}
    retried = {**run.task_event, "taskToken": run.task_event["taskToken"] + "-retry"}
    assert Handler("request_interrupt")(retried)["status"] == "taken-over"
    # And an external event, which names nobody
    external = {
        "kind": "external-event",
        "key": "pay",
        "data": {"eventType": "payment", "correlation": {"paymentId": "pay_1"}},
    }
    requested(harness, external)
    # Then no further message was sent
    assert notices(inbox) == {}


def test_a_hostile_title_makes_a_one_line_ascii_subject(harness: WorkflowHarness, inbox: Inbox) -> None:
    # Given a title with a line break, non-ASCII and 300 characters
    title = "Déploiement\r\nBcc: everyone " + "x" * 300
    requested(harness, approval(title=title, approversList=["alice"]))
    # When alice's message arrives
    subject = notices(inbox)["alice"]["subject"]
    # Then the subject is one ASCII line under 100 characters
    assert subject.startswith("Approval needed: Deploiement Bcc: everyone x")
    assert len(subject) <= 99 and subject.isascii() and "\n" not in subject and "\r" not in subject


def test_links_and_tokens_are_never_logged(
    harness: WorkflowHarness,
    inbox: Inbox,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Given a notified approver whose link is opened (JSON, HTML), refused once and used
    # (our loggers at DEBUG; botocore's own DEBUG output shows every request body and is never enabled)
    caplog.set_level("INFO")
    caplog.set_level("DEBUG", logger="waitgate")
    requested(harness, approval(approversList=["alice"]))
    token = token_of(notices(inbox)["alice"]["document"]["link"])
    Handler("inspect_by_token")(token_event(token))
    Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    Handler("resolve_by_token")(token_event(token, method="POST", raw_body="{broken"))
    Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    # When we read everything written to stdout, stderr and the log
    captured = capsys.readouterr()
    logged = captured.out + captured.err + caplog.text
    # Then neither the token nor its MAC appears anywhere
    assert token not in logged
    assert token.rsplit(".", 1)[1] not in logged
    assert "ow2.hs256" not in logged
