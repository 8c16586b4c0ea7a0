"""An action-bound approval in Debian's chromium: the page shows what will be done and what it
changes as a diff table a person can read (and a screen reader too: checked with axe-core); the
requester's own vote from the page is refused, and says why."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.page.person import Person, minted_link, new_run_id, start_run
from tests.e2e.page.samples import TITLE, approval

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

TRANSFER = {"name": "transfer", "args": {"amount": 100, "to": "acct-2"}, "target": "acct-1"}
CHANGES = {"before": {"balance": 1000, "hold": "none"}, "after": {"balance": 900, "hold": "none"}}


def test_the_action_and_its_diff_are_readable_and_accessible(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given an approval of a transfer, requested by carol, with what it changes
    run_id = new_run_id("action")
    data = {
        "action": TRANSFER,
        "changes": CHANGES,
        "requestedBy": "carol",
        "approversList": ["alice", "carol"],
    }
    start_run(local_stack, "interrupt", {"interrupt": approval(**data)}, run_id)
    # When alice opens her link
    assert anyone.open(minted_link(local_stack, run_id, "Interrupt", "alice")) == TITLE
    # Then the page says what will be done, on what, and the one leaf that changes, in words
    assert "What will be done: transfer on acct-1" in anyone.text(".bound-action")
    assert "sha256:" in anyone.text(".bound-action")
    assert anyone.texts("table.diff tbody th") == ["/balance"]
    cells = [" ".join(cell.split()) for cell in anyone.texts("table.diff tbody td")]
    assert cells == ["changed", "was 1000", "becomes 900"]  # the words a screen reader reads too
    anyone.assert_accessible("the action and its diff")


def test_the_requesters_vote_from_the_page_is_refused(local_stack: LocalStackHandle, person: Person) -> None:
    # Given carol's own request; when carol accepts it from a link minted for her
    run_id = new_run_id("self")
    data = {"action": TRANSFER, "requestedBy": "carol", "approversList": ["alice", "carol"]}
    start_run(local_stack, "interrupt", {"interrupt": approval(**data)}, run_id)
    assert person.open(minted_link(local_stack, run_id, "Interrupt", "carol")) == TITLE
    person.press("accept")
    # Then the page refuses it, and nothing was decided
    assert "cannot decide it" in person.text()
    person.assert_accessible("the refusal of a self-approval")
