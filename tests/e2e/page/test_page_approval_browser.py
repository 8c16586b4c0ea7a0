"""People deciding an approval on the local stack in Debian's chromium, from the links the stack
mailed them (`waitgate dev-inbox`): what the page tells them, a quorum vote then a reopen that shows
the waiting state, an edit-accept without JavaScript that decides, the resolved page, changes
requested with the keyboard alone, and a question that must be written before it is sent. Every
page is checked with axe-core."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.page.person import (
    Person,
    inbox_link,
    new_run_id,
    output_of,
    resolve_on_the_run,
    start_run,
    status_for_a_browser,
    waiting_at,
)
from tests.e2e.page.samples import ARTIFACT, TITLE, approval

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def test_a_quorum_vote_then_a_reopen_shows_the_waiting_state_and_the_last_vote_decides(
    local_stack: LocalStackHandle, person: Person, person_without_scripts: Person
) -> None:
    # Given a release that needs 3 of ann, alice and bob, and ann has accepted
    run_id = new_run_id("quorum")
    data = {"requiredApprovals": 3, "approversList": ["ann", "alice", "bob"]}
    execution = start_run(local_stack, "interrupt", {"interrupt": approval(**data)}, run_id)
    alice_link, bob_link = inbox_link(local_stack, run_id, "alice"), inbox_link(local_stack, run_id, "bob")
    waiting_at(local_stack, run_id, "Interrupt")
    ann = {"action": "accept", "decidedAt": "2026-12-01T10:02:00Z", "feedback": "LGTM"}
    assert resolve_on_the_run(local_stack, run_id, "Interrupt", "ann", ann) == 202
    # When alice opens her link
    assert person.open(alice_link) == TITLE
    page, meta = person.text(), person.terms(".meta")
    # Then it says who she decides as, how it is decided and how far it got, until when, and why
    assert (meta["You decide as"], meta["Step"]) == ("alice", "Interrupt")
    assert re.fullmatch(
        r"\w{3} \d+ \w{3} \d{4}, \d\d:\d\d \(your time, UTC[+-]\d\d:\d\d\) \(in 2 h 5\d min\)",
        meta["Decide by"],
    )
    assert "3 of 3 approvals needed · 1 of 3 so far. A single reject rejects it." in page
    assert re.fullmatch(r"ann accepted (\d+ \w{3}, )?\d\d:\d\d — LGTM", person.texts(".quorum .votes li")[0])
    assert "Automatic score: 0.62" in page and "The migration touches the users table" in page
    assert person.texts(".criteria li") == ["All checks green", "Migrations can be rolled back"]
    assert person.texts(".artifact table.kv > tbody > tr > th") == ["version", "changes", "notes", "items"]
    assert person.texts(".artifact table.rows td") == ["c-101", "Faster login", "c-102", "New billing API"]
    person.assert_accessible("the approval page")
    # When she accepts with a comment
    person.type("feedback", "Fine by me")
    assert person.press("accept") == TITLE
    # Then her vote is recorded and the page says it waits for one more, with no form to vote again
    assert "Your vote is recorded" in person.text() and "Waiting for 1 more approval." in person.text()
    assert not person.has('button[value="accept"]') and person.has('button[value="ask"]')
    person.assert_accessible("the page after a vote")
    # And reopening the link says the same
    assert person.open(alice_link) == TITLE
    assert "Waiting for 1 more approval." in person.text() and not person.has('button[value="accept"]')
    assert "alice accepted" in person.text()
    # When bob, with scripts off, accepts with his edits to the artifact
    bob = person_without_scripts
    assert bob.open(bob_link) == TITLE
    bob.assert_accessible("the approval page without scripts")
    bob.open_section("Accept with edits")
    assert bob.field("editedArtifactData.version").get_attribute("value") == "4.2.0"
    bob.type("editedArtifactData.version", "4.2.1")
    assert bob.press("edit-accept") == "Your answer was recorded"
    # Then the answer page says what was decided, by whom; the run goes on with it
    decided = bob.terms(".decided")
    assert (decided["Decision"], decided["Decided by"]) == ("Accept with edits", "bob")
    assert decided["When"].endswith(" UTC (in less than a minute)") or "ago" in decided["When"]
    bob.assert_accessible("the answer page")
    output = output_of(local_stack, execution)
    assert (output["action"], output["decidedBy"]) == ("edit-accept", "bob")
    assert output["editedArtifactData"] == {**ARTIFACT, "version": "4.2.1"}
    assert [vote["principal"] for vote in output["votes"]] == ["ann", "alice", "bob"]
    assert output["votes"][1]["feedback"] == "Fine by me"
    # And alice's link now says it was resolved: what, by whom, when (status 409)
    assert person.open(alice_link) == "Already resolved"
    decided = person.terms(".decided")
    assert (decided["Decision"], decided["Decided by"]) == ("Accept with edits", "bob")
    assert "(your time, UTC" in decided["When"]
    assert status_for_a_browser(alice_link) == 409
    person.assert_accessible("the resolved page")


def test_a_person_requests_changes_with_the_keyboard_alone(
    local_stack: LocalStackHandle, person: Person
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    # Given an approval for alice
    run_id = new_run_id("keyboard")
    execution = start_run(local_stack, "interrupt", {"interrupt": approval(approversList=["alice"])}, run_id)
    assert person.open(inbox_link(local_stack, run_id, "alice")) == TITLE

    def keys(*pressed: str) -> None:
        ActionChains(person.driver).send_keys(*pressed).perform()

    def tab_to(css: str) -> None:
        """Press Tab until the element of `css` has the focus."""
        target = person.find(css)
        for _ in range(60):
            if person.driver.switch_to.active_element == target:
                return
            keys(Keys.TAB)
        raise AssertionError(f"Tab never reached {css}")

    # When she opens "Request changes" and fills it in with the keyboard alone
    tab_to('details[data-action="refine"] > summary')
    keys(Keys.ENTER)
    tab_to('input[name="scope"][value="whole"]')
    keys(Keys.ARROW_DOWN)  # "One section"
    tab_to('[name="sectionPath"]')
    keys("notes")
    tab_to('[name="text"]')
    keys("Say how to roll back.")
    tab_to('button[value="refine"]')
    page = person.find("html")
    keys(Keys.ENTER)
    person.wait_for_a_new_page(page)
    # Then her request is recorded, and the run goes on with it
    assert person.heading() == "Your answer was recorded"
    decided = person.terms(".decided")
    assert (decided["Decision"], decided["Changes requested"], decided["Of"]) == (
        "Request changes",
        "Say how to roll back.",
        "notes",
    )
    output = output_of(local_stack, execution)
    assert output["refineFeedback"] == {
        "scope": "section",
        "sectionPath": "notes",
        "text": "Say how to roll back.",
    }


@pytest.mark.parametrize("scripts", [True, False], ids=["scripts on", "scripts off"])
def test_a_question_must_be_written_before_it_is_sent(
    local_stack: LocalStackHandle, person: Person, person_without_scripts: Person, scripts: bool
) -> None:
    someone = person if scripts else person_without_scripts
    # Given an approval for alice
    run_id = new_run_id("ask")
    execution = start_run(local_stack, "interrupt", {"interrupt": approval(approversList=["alice"])}, run_id)
    link = inbox_link(local_stack, run_id, "alice")
    assert someone.open(link) == TITLE
    # When she sends an empty question
    someone.open_section("Ask a question")
    if scripts:  # the script stops it; nothing is sent
        someone.press_and_stay("ask")
        assert someone.driver.switch_to.active_element == someone.field("question")
    else:  # the server refuses it; the page comes back with the error beside the question
        assert someone.press("ask") == TITLE
        assert "Your answer was not accepted" in someone.text(".error-summary")
    # Then the error is beside the question
    assert someone.error_beside("question") == "Write your question before you send it."
    someone.assert_accessible("the page with an error")
    # When she writes it and sends it
    someone.type("question", "Which region goes first?")
    assert someone.press("ask") == TITLE
    # Then it is recorded, the request stays open, and she can still decide
    assert "Your question was sent." in someone.text()
    assert someone.texts("ul.votes li")[-1].startswith("alice asked")
    assert someone.has('button[value="accept"]')
    someone.assert_accessible("the page after a question")
    # And her decision then goes to the run
    assert someone.press("accept") == "Your answer was recorded"
    assert output_of(local_stack, execution)["action"] == "accept"
