"""How long a notification's link lasts, and where an expired one leads, in Debian's chromium on the
local stack: a 4-hour approval's link works as long as its page says the person has to decide; an
expired link names the run and the step, leads to the inbox and asks for a fresh link by e-mail; a
link of a request the deadline decided shows that decision. Each page clean under axe-core."""

from __future__ import annotations

import json
import urllib.request
import uuid
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.page.person import (
    Person,
    inbox_link,
    minted_link,
    new_run_id,
    output_of,
    start_run,
    status_for_a_browser,
    wait_until,
)
from tests.e2e.page.samples import TITLE, approval

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

FOUR_HOURS_MS = 4 * 3600 * 1000
REJECT_AT_DEADLINE = {"resolveWith": {"action": "reject", "feedback": "No decision in time."}}


def reachable_person(stack: LocalStackHandle, name: str) -> str:
    """A fresh principal with an e-mail address in the directory."""
    principal = f"{name}-{uuid.uuid4().hex[:6]}"
    done = run_local(
        ["directory", "set-contact", "--principal", principal, "--email", f"{principal}@example.com"],
        stack.environment,
    )
    assert done.returncode == 0, done.stderr
    return principal


def notices_for(stack: LocalStackHandle, run_id: str, recipient: str) -> list[dict[str, Any]]:
    listed = run_local(
        ["dev-inbox", "--json", "--run-id", run_id, "--recipient", recipient], stack.environment
    )
    return [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]


def link_expiry(link: str) -> str:
    """What the link itself says about how long it works (its inspect answer's header)."""
    with urllib.request.urlopen(urllib.request.Request(link), timeout=30) as answer:
        return str(answer.headers["Waitgate-Link-Expires-At"])


def test_a_four_hour_approval_s_link_lasts_as_long_as_the_page_says(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given a 4-hour approval and its approver's notification
    alice = reachable_person(local_stack, "alice")
    run_id = new_run_id("lasting")
    start_run(
        local_stack,
        "interrupt",
        {"interrupt": {**approval(approversList=[alice]), "timeoutMs": FOUR_HOURS_MS}},
        run_id,
    )
    link = inbox_link(local_stack, run_id, alice)
    # When alice opens it
    assert anyone.open(link) == TITLE
    # Then the page gives her until the deadline, about 4 hours, and no shorter life for the link
    meta = anyone.terms(".meta")
    assert "in 3 h" in meta["Decide by"] or "in 4 h" in meta["Decide by"], meta
    assert "This link works until" not in meta
    # And the link works exactly that long
    decide_by = anyone.find(".meta time").get_attribute("datetime")
    assert link_expiry(link) == decide_by
    anyone.assert_accessible("a 4-hour approval's page")


def test_an_expired_link_leads_to_the_inbox_and_a_fresh_link_by_e_mail(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given alice's link that worked for one second, to an approval that still waits for her
    alice = reachable_person(local_stack, "alice")
    run_id = new_run_id("expired")
    start_run(local_stack, "interrupt", {"interrupt": approval(approversList=[alice])}, run_id)
    link = minted_link(local_stack, run_id, "Interrupt", alice, ttlSeconds=1)
    wait_until(lambda: status_for_a_browser(link) == 410, "the link to expire")
    # When she opens it / Then it says so, names the request, its run and its step
    assert anyone.open(link) == "This link has expired"
    assert TITLE in anyone.text("#status") and "still waits" in anyone.text("#status")
    where = anyone.terms(".meta")
    assert (where["Run"], where["Step"]) == (run_id, "Interrupt")
    anyone.assert_accessible("the expired-link page")
    # And it leads to the inbox
    inbox = anyone.find('a[href="../inbox"]')
    assert inbox.text == "Open your inbox"
    assert inbox.get_attribute("href") == f"{local_stack.api_url}/inbox"
    # When she asks for a fresh link
    page = anyone.find("html")
    button = anyone.find("form.fresh-link button")
    assert button.text == "E-mail me a fresh link"
    button.click()
    anyone.wait_for_a_new_page(page)
    # Then the answer says only to check her e-mail
    assert anyone.heading() == "Check your e-mail"
    anyone.assert_accessible("the fresh-link answer")

    # And an e-mail comes, for her, with a fresh link that works (and no Slack message)
    def fresh_mail() -> list[dict[str, Any]] | None:
        sent = [n for n in notices_for(local_stack, run_id, alice) if n["subject"].startswith("New link:")]
        return sent if any(n["channel"] == "email" for n in sent) else None

    sent = wait_until(fresh_mail, "the fresh link's e-mail")
    assert {n["channel"] for n in sent} <= {"sns", "email"}
    mail = next(n for n in sent if n["channel"] == "email")
    assert anyone.open(mail["link"]) == TITLE


def test_a_link_of_a_request_the_deadline_decided_shows_the_decision(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given an approval that rejects at its 1.5 s deadline, and its approver's link (which lasts until then)
    alice = reachable_person(local_stack, "alice")
    run_id = new_run_id("deadline")
    interrupt = {**approval(approversList=[alice]), "timeoutMs": 1500}
    execution = start_run(
        local_stack,
        "interrupt",
        {"interrupt": interrupt, "escalation": {"onDeadline": REJECT_AT_DEADLINE}},
        run_id,
    )
    link = inbox_link(local_stack, run_id, alice)
    assert output_of(local_stack, execution)["decidedBy"] == "waitgate:deadline"
    # When alice opens her link after the deadline
    assert anyone.open(link) == "Decided by the deadline"
    # Then it says what was decided, by whom and when
    decided = anyone.terms(".decided")
    assert decided["Decision"] == "Reject"
    assert decided["Decided by"] == "nobody in time: the deadline's default decision"
    assert "UTC" in decided["When"]
    assert decided["Comment"] == "No decision in time."
    assert not anyone.has("form.fresh-link")
    assert status_for_a_browser(link) == 410
    anyone.assert_accessible("the decided-by-the-deadline page")
