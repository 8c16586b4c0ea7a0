"""The pages a link may show besides a form, and the page in the reader's own conditions: an invalid,
an expired, a view-only and an already-resolved link, each a short page of its own with its status
and clean under axe-core; times in the reader's own zone (the server's UTC without script); and the
approval page at 320 px wide in dark mode, every section open, with nothing wider than the screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.page.person import (
    Person,
    minted_link,
    new_run_id,
    output_of,
    start_run,
    status_for_a_browser,
    wait_until,
)
from tests.e2e.page.samples import TITLE, approval
from tests.e2e.test_kinds_e2e import token_for

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def waiting_approval(stack: LocalStackHandle, **data: Any) -> tuple[str, str]:
    run_id = new_run_id("states")
    execution = start_run(stack, "interrupt", {"interrupt": approval(**data)}, run_id)
    return run_id, execution


def test_an_invalid_link_says_so(local_stack: LocalStackHandle, anyone: Person) -> None:
    run_id, _ = waiting_approval(local_stack)
    link = minted_link(local_stack, run_id, "Interrupt", "alice")
    altered = link[:-10] + ("A" if link[-10] != "A" else "B") + link[-9:]  # one character of its MAC
    assert anyone.open(altered) == "This link is not valid"
    assert status_for_a_browser(altered) == 401
    anyone.assert_accessible("the invalid-link page")


def test_an_expired_link_says_so(local_stack: LocalStackHandle, anyone: Person) -> None:
    # Given a link that works for one second, once it no longer does
    run_id, _ = waiting_approval(local_stack)
    link = minted_link(local_stack, run_id, "Interrupt", "alice", ttlSeconds=1)
    wait_until(lambda: status_for_a_browser(link) == 410, "the link to expire")
    # Then its page says it expired
    assert anyone.open(link) == "This link has expired"
    anyone.assert_accessible("the expired-link page")


def test_a_view_only_link_shows_the_request_without_a_form(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    run_id, _ = waiting_approval(local_stack)
    minted_link(local_stack, run_id, "Interrupt", "alice")
    minted = local_stack.http.post(
        f"/runs/{run_id}/interrupts/Interrupt/tokens",
        {"intent": "inspect", "sub": "auditor"},
        token=token_for(local_stack, "release-bot", "interrupts:mint"),
    )
    link = str(minted.json()["url"])
    assert anyone.open(link) == TITLE
    assert "This link lets you see this request, not answer it." in anyone.text()
    assert not anyone.has("form") and "You decide as" not in anyone.terms(".meta")
    anyone.assert_accessible("the view-only page")


def test_an_answered_request_says_what_was_sent_and_when(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given a custom request answered through its link
    run_id = new_run_id("answered")
    execution = start_run(local_stack, "custom", {}, run_id)
    link = minted_link(local_stack, run_id, "PrintLabel", "alice")
    assert (
        local_stack.http.post(
            link.removeprefix(local_stack.api_url), {"resumeValue": {"printed": True}}
        ).status
        == 200
    )
    output_of(local_stack, execution)
    # When the link is opened again, Then it says it was resolved, with what was sent and when
    assert anyone.open(link) == "Already resolved"
    resolved = anyone.terms(".decided")
    assert resolved["What was sent"] == "printed yes" and "UTC" in resolved["When"]
    assert status_for_a_browser(link) == 409
    anyone.assert_accessible("the already-resolved page")


@contextmanager
def emulated(driver: Any, **conditions: Any) -> Iterator[None]:
    """Chromium as another reader's: a time zone, a screen width, dark mode; reset after."""
    if "timezone" in conditions:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": conditions["timezone"]})
    if "width" in conditions:
        metrics = {"width": conditions["width"], "height": 720, "deviceScaleFactor": 1, "mobile": True}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    if conditions.get("dark"):
        features = [{"name": "prefers-color-scheme", "value": "dark"}]
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_times_are_in_the_readers_own_zone_and_utc_without_script(
    local_stack: LocalStackHandle, person: Person, person_without_scripts: Person
) -> None:
    run_id, _ = waiting_approval(local_stack)
    link = minted_link(local_stack, run_id, "Interrupt", "alice")
    # Without script: the server's UTC, and how long until then when the page was made
    person_without_scripts.open(link)
    utc = person_without_scripts.terms(".meta")["Decide by"]
    found = re.fullmatch(r"\w{3} \d+ \w{3} \d{4}, (\d\d):(\d\d) UTC \(in 2 h 5\d min\)", utc)
    assert found, utc
    # With script, in Tokyo: the same moment in the reader's time, and its zone
    with emulated(person.driver, timezone="Asia/Tokyo"):
        person.open(link)
        local = person.terms(".meta")["Decide by"]
    clock = f"{(int(found.group(1)) + 9) % 24:02d}:{found.group(2)}"
    expected = rf"\w{{3}} \d+ \w{{3}} \d{{4}}, {clock} \(your time, UTC\+09:00\) \(in 2 h 5\d min\)"
    assert re.fullmatch(expected, local), local


def test_the_page_at_320_px_in_dark_mode(local_stack: LocalStackHandle, person: Person) -> None:
    # Given an approval with everything a page can show
    run_id, execution = waiting_approval(local_stack, approversList=["alice"], requiredApprovals=1)
    link = minted_link(local_stack, run_id, "Interrupt", "alice")
    with emulated(person.driver, width=320, dark=True):
        assert person.open(link) == TITLE
        for title in ("Request changes", "Accept with edits", "Ask a question"):
            person.open_section(title)
        # Then nothing is wider than the screen, the colours are dark, and axe-core finds nothing
        widths = person.driver.execute_script(
            "return [document.documentElement.clientWidth, document.documentElement.scrollWidth]"
        )
        assert widths == [320, 320]
        background = person.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(13, 17, 23)"
        person.assert_accessible("the approval page, 320 px, dark")
        # And a person can still decide on it
        assert person.press("accept") == "Your answer was recorded"
        assert person.driver.execute_script("return document.documentElement.scrollWidth") == 320
        person.assert_accessible("the answer page, 320 px, dark")
    assert output_of(local_stack, execution)["action"] == "accept"
