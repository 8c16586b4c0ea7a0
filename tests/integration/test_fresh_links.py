"""An expired link on moto: its page (410) leads to the inbox and a fresh-link form, or says what was
decided; `POST /fresh-links` answers the same 202 whatever happened, and sends a fresh link by e-mail
only to the person the link was for, while the request waits for them, at most once per 5 minutes."""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, sample_event
from tests.support.links import BROWSER_ACCEPT, Inbox, token_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


@pytest.fixture
def harness(inbox: Inbox) -> WorkflowHarness:
    return WorkflowHarness()


def with_email(*principals: str) -> None:
    from waitgate.channels.contacts import ContactPoints
    from waitgate.wiring.channel_composition import contacts

    found = contacts()
    assert found is not None
    for principal in principals:
        found.set_contact("default", principal, ContactPoints(email=f"{principal}@example.com"))


def requested(harness: WorkflowHarness, inbox: Inbox, **data: Any) -> SuspendedRun:
    run = harness.suspend({**APPROVAL, "data": {**APPROVAL["data"], **data}})
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    inbox.envelopes()  # the request's own notices: not what these tests look at
    return run


def expired_token(run: SuspendedRun, sub: str | None = "alice", intent: str = "resolve") -> str:
    """A link this host signed for the run's interrupt, which expired a minute ago."""
    from waitgate.run.records import RunRef
    from waitgate.tokens import TokenClaims, mint
    from waitgate.wiring.composition import keyring, store

    record = store().load(RunRef("default", run.run_id), "Interrupt").interrupt
    assert record is not None
    moment = (datetime.now(UTC) - timedelta(minutes=1)).replace(microsecond=0)
    claims = TokenClaims(
        record.interrupt_id,
        run.run_id,
        "Interrupt",
        "default",
        intent,
        moment,
        sub=sub,  # type: ignore[arg-type]
    )
    return mint(claims, keyring())


def live_token(run: SuspendedRun, sub: str) -> str:
    """A working link for `sub`, as a notice carries."""
    from waitgate.run.records import RunRef
    from waitgate.service.mint_token import LinkSettings, link_for
    from waitgate.wiring.composition import keyring, store

    record = store().load(RunRef("default", run.run_id), "Interrupt").interrupt
    assert record is not None
    settings = LinkSettings(timedelta(hours=1), "")
    return link_for(record, "resolve", sub, keyring(), datetime.now(UTC), settings).token


def fresh_link_event(token: str, *, accept: str = BROWSER_ACCEPT, body: str | None = None) -> dict[str, Any]:
    event = sample_event("fresh_link")
    event["headers"]["accept"] = accept
    event["body"] = body if body is not None else urlencode({"token": token})
    return event


def asked(token: str, **options: Any) -> dict[str, Any]:
    answer: dict[str, Any] = Handler("fresh_link")(fresh_link_event(token, **options))
    return answer


def without_nonce(html: str) -> str:
    """The page without its per-response CSP nonce (the one part that differs by design)."""
    return re.sub(r'nonce="[^"]+"', 'nonce=""', html)


def fresh_notices(inbox: Inbox) -> list[dict[str, Any]]:
    return [json.loads(envelope["Message"]) for envelope in inbox.envelopes()]


def test_an_expired_link_answers_410_to_json_and_a_page_that_leads_somewhere_to_a_browser(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given alice's link to a waiting approval, expired
    run = requested(harness, inbox, approversList=["alice"])
    token = expired_token(run)
    # When a program opens it / Then 410 interrupt_expired, problem+json
    answer = Handler("inspect_by_token")(token_event(token))
    assert answer["statusCode"] == 410
    assert answer["headers"]["Content-Type"] == "application/problem+json"
    assert json.loads(answer["body"])["code"] == "interrupt_expired"
    # When a browser opens it
    page = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    # Then 410, a page naming the run and the step, with the inbox and the fresh-link form
    assert page["statusCode"] == 410
    html = page["body"]
    assert "This link has expired" in html and run.run_id in html and "Interrupt" in html
    assert 'href="../inbox"' in html
    assert 'action="../fresh-links"' in html and f'value="{token}"' in html
    assert "E-mail me a fresh link" in html
    assert page["headers"]["Cache-Control"] == "no-store"


def test_a_form_posted_after_its_link_expired_gets_the_page_that_leads_somewhere(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given alice's page of a waiting approval, left open until its link expired
    run = requested(harness, inbox, approversList=["alice"])
    token = expired_token(run)
    # When her browser posts the page's form
    event = token_event(token, method="POST", accept=BROWSER_ACCEPT, raw_body="")
    event["headers"]["content-type"] = "application/x-www-form-urlencoded"
    event["body"] = base64.b64encode(urlencode({"action": "approve"}).encode("ascii")).decode("ascii")
    event["isBase64Encoded"] = True
    page = Handler("resolve_by_token")(event)
    # Then 410, the expired link's page as opening the link shows it: the inbox and a fresh link
    assert page["statusCode"] == 410
    html = page["body"]
    assert "This link has expired" in html and run.run_id in html
    assert 'href="../inbox"' in html and 'action="../fresh-links"' in html
    # And nothing was recorded: the request still waits (a resolved one is 409 to its links)
    assert Handler("inspect_by_token")(token_event(live_token(run, "alice")))["statusCode"] == 200


def test_a_fresh_link_goes_by_e_mail_to_the_link_s_person_once_per_five_minutes(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given alice, an approver with an e-mail address, and her expired link
    with_email("alice")
    run = requested(harness, inbox, approversList=["alice"])
    token = expired_token(run)
    # When she asks for a fresh link
    first = asked(token)
    # Then 202, and one notice for her, by e-mail only, with a link that works until the deadline
    assert first["statusCode"] == 202
    (notice,) = fresh_notices(inbox)
    assert (notice["kind"], notice["recipient"], notice["channels"]) == (
        "interrupt.fresh-link",
        "alice",
        ["email"],
    )
    assert notice["subject"].startswith("New link: Approval needed:")
    fresh = notice["link"].rsplit("/", 1)[1]
    assert Handler("inspect_by_token")(token_event(fresh))["statusCode"] == 200
    # When she asks again at once (twice)
    again = [asked(token), asked(token)]
    # Then the same 202, and no second link
    assert [a["statusCode"] for a in again] == [202, 202]
    assert {without_nonce(a["body"]) for a in again} == {without_nonce(first["body"])}
    assert "Check your e-mail" in first["body"]
    assert fresh_notices(inbox) == []


def test_the_answer_is_the_same_whatever_happened_and_only_an_owed_link_is_sent(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given an approval alice may decide and a watcher is only told of (audience), both with e-mail
    with_email("alice", "watcher", "bob")
    run = requested(harness, inbox, approversList=["alice", "bob"], audience=["alice", "watcher", "bob"])
    # And every kind of request for a fresh link that is owed nothing
    nobody = {
        "not an approver": expired_token(run, sub="watcher"),
        "no e-mail address": expired_token(run, sub="carol"),
        "a link without a person": expired_token(run, sub=None),
        "an inspect-only link": expired_token(run, intent="inspect"),
        "not authentic": expired_token(run)[:-4] + "AAAA",
        "not a token": "hello",
    }
    # When each asks (as a program, which gets JSON)
    answers = {why: asked(token, accept="application/json") for why, token in nobody.items()}
    # Then every answer is the same 202 with the same body
    assert {answer["statusCode"] for answer in answers.values()} == {202}
    assert len({answer["body"] for answer in answers.values()}) == 1
    assert json.loads(next(iter(answers.values()))["body"])["status"] == "accepted"
    # And nobody was sent anything
    assert fresh_notices(inbox) == []
    # When bob votes, then asks for a fresh link / Then nothing is sent either: it waits for alice only
    live = live_token(run, "bob")
    voted = Handler("resolve_by_token")(token_event(live, method="POST", body={"resumeValue": ACCEPT}))
    assert voted["statusCode"] in (200, 202)
    assert asked(expired_token(run, sub="bob"))["statusCode"] == 202
    assert [n["recipient"] for n in fresh_notices(inbox)] == []


def test_a_request_that_no_longer_waits_gets_no_fresh_link_and_its_page_says_what_was_decided(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given alice's expired link to an approval she then decided with another link
    with_email("alice")
    run = requested(harness, inbox, approversList=["alice"])
    token = expired_token(run)
    live = live_token(run, "alice")
    answer = {"action": "reject", "decidedAt": "2026-11-30T10:00:00Z", "feedback": "Not this week."}
    assert (
        Handler("resolve_by_token")(token_event(live, method="POST", body={"resumeValue": answer}))[
            "statusCode"
        ]
        == 200
    )
    # When she opens the expired link in a browser
    page = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    # Then it says what was decided, by whom and when, and offers no fresh link
    html = page["body"]
    assert page["statusCode"] == 410
    assert "Already decided" in html and "Reject" in html and "alice" in html and "Not this week." in html
    assert "E-mail me a fresh link" not in html and 'href="../inbox"' in html
    # And asking for a fresh link anyway sends nothing
    assert asked(token)["statusCode"] == 202
    assert fresh_notices(inbox) == []


def test_eligibility_fails_closed_when_the_directory_cannot_be_read(
    harness: WorkflowHarness, inbox: Inbox, dynamodb: Any
) -> None:
    # Given an approval open to the members of a group, and alice's expired link
    with_email("alice")
    from waitgate.wiring.composition import directory

    directory().add_member("default", "group", "release", "alice")  # type: ignore[attr-defined]
    run = requested(harness, inbox, approverGroupRefs=["release"])
    token = expired_token(run)
    # When the directory is gone
    from waitgate.wiring.settings import settings

    dynamodb.delete_table(TableName=settings().directory_table_name)
    # Then the same 202, and nothing sent
    assert asked(token)["statusCode"] == 202
    assert fresh_notices(inbox) == []


def test_a_body_without_a_token_is_400(inbox: Inbox) -> None:
    for body in ("", "token=", "other=1", "token=a&token=b", "token=a&more=b"):
        answer = Handler("fresh_link")(fresh_link_event("", accept="application/json", body=body))
        assert answer["statusCode"] == 400, body
        assert json.loads(answer["body"])["code"] == "validation_error"


def test_a_notification_s_link_lasts_until_the_deadline_and_the_page_shows_no_shorter_life(
    harness: WorkflowHarness, inbox: Inbox
) -> None:
    # Given a 4-hour approval (the host's notice links: 168 h at most)
    run = harness.suspend(
        {**APPROVAL, "timeoutMs": 4 * 3600 * 1000, "data": {**APPROVAL["data"], "approversList": ["alice"]}}
    )
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    # When alice's notice comes
    (notice,) = fresh_notices(inbox)
    from waitgate.run.records import RunRef
    from waitgate.wiring.composition import store

    record = store().load(RunRef("default", run.run_id), "Interrupt").interrupt
    assert record is not None and record.deadline is not None
    # Then its link works until the deadline (to the second), not 30 minutes
    assert notice["expiresAt"] == record.deadline[:19] + "Z"
    token = notice["link"].rsplit("/", 1)[1]
    answer = Handler("inspect_by_token")(token_event(token))
    assert answer["headers"]["Waitgate-Link-Expires-At"] == notice["expiresAt"]
    # And its page says "Decide by", with no shorter "This link works until"
    page = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))["body"]
    assert "Decide by" in page and "This link works until" not in page
