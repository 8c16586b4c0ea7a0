"""The signed-in inbox in Debian's chromium, on the local stack: sign in on the local issuer's dev
form as alice, see her items (one hers by list, one by group), open one in place, approve it with
the link page's own form, see it leave the list; sign in as an outsider, see an empty inbox. Every
state of the page is checked with axe-core; the token is never in storage or in the URL."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.page.person import Person, wait_until
from tests.e2e.test_inbox_e2e import release_team_tenant, start

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def approval(title: str, **data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "ship",
        "timeoutMs": 3 * 3600 * 1000,
        "data": {
            "artifactId": "r",
            "artifactType": "release",
            "title": title,
            "actions": ["accept", "reject", "ask"],
            **data,
        },
    }


def sign_in(person: Person, stack: LocalStackHandle, sub: str, tenant: str) -> None:
    person.driver.get(stack.description["inboxUrl"])
    assert person.heading() == "What waits for you"
    person.wait.until(lambda d: person.find("#sign-in").is_displayed())
    person.find("#sign-in").click()
    person.wait.until(lambda d: person.has('input[name="sub"]'))
    assert person.heading() == "Sign in (local issuer)"
    person.assert_accessible("the local issuer's sign-in form")
    person.type("sub", sub)
    person.type("tenant", tenant)
    person.find('button[type="submit"]').click()
    person.wait.until(lambda d: "Signed in as" in person.text("#who"))
    assert "?" not in person.driver.current_url  # the code and state are gone from the URL


def listed_titles(person: Person) -> list[str]:
    person.wait.until(lambda d: person.text("#list-status") not in ("", "Loading…"))
    return person.texts(".inbox-item h3")


def test_alice_approves_one_in_place_and_an_outsider_sees_nothing(
    local_stack: LocalStackHandle, person: Person
) -> None:
    tenant = release_team_tenant(local_stack, "b")
    # Given two approvals that wait for alice (by list, by group), one of them a quorum, and one for ben
    mine = start(local_stack, tenant, approval("Ship 4.2?", approversList=["alice"]))
    start(
        local_stack,
        tenant,
        approval("Migrate billing?", approverGroupRefs=["release-team"], requiredApprovals=2),
    )
    start(local_stack, tenant, approval("Ben's own", approversList=["ben"]))
    # When alice signs in on the local issuer
    sign_in(person, local_stack, "alice", tenant)
    # Then she sees her two, with the quorum's progress, and nothing of ben's
    titles = wait_until(lambda: (t := listed_titles(person)) and len(t) == 2 and t, "alice's two items")
    assert sorted(titles) == ["Migrate billing?", "Ship 4.2?"]
    assert "0 of 2 approvals" in person.text("#items")
    assert "Signed in as alice (tenant " + tenant + ")." == person.text("#who")
    person.assert_accessible("alice's inbox")
    # And the token is in no storage the page can leave behind
    stored = person.driver.execute_script(
        "return [localStorage.length, sessionStorage.length, document.cookie]"
    )
    assert stored == [0, 0, ""]
    # When she opens "Ship 4.2?" in place
    item = person.find(f'li[data-run-id="{mine}"] button.open')
    item.click()
    person.wait.until(lambda d: person.has('#opened-body form#decide button[value="accept"]'))
    assert person.find("#opened-body h2").text == "Ship 4.2?"
    assert person.terms("#opened-body .meta")["You decide as"] == "alice"
    person.assert_accessible("an item opened in the inbox")
    # And approves it with a comment, with the link page's own form
    person.type("feedback", "Ship it")
    person.find('#opened-body button[name="action"][value="accept"]').click()
    # Then she is told, and it left her list
    person.wait.until(lambda d: "Your answer was recorded" in person.text("#said"))
    wait_until(lambda: listed_titles(person) == ["Migrate billing?"], "the approved item to leave the list")
    person.assert_accessible("the inbox after a decision")
    # When she signs out and an outsider signs in
    person.find("#sign-out").click()
    assert person.text("#who") == "You signed out."
    sign_in(person, local_stack, "outsider", tenant)
    # Then the outsider's inbox is empty
    wait_until(lambda: person.text("#list-status") == "Nothing waits for you.", "the empty inbox")
    assert person.texts(".inbox-item") == []
    person.assert_accessible("an empty inbox")
