"""A person on one machine: the workflow suspends on the local stack, the notification's link comes
from the local inbox (`waitgate dev-inbox`), Debian's chromium opens the page, the person presses
Accept with the keyboard, the execution SUCCEEDS with that decision; the link then says "already
resolved" with status 409."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_kinds_e2e import SampleRun, token_for

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SCREENSHOTS = Path(os.environ.get("WAITGATE_SCREENSHOTS") or tempfile.gettempdir()) / "waitgate-screenshots"
TITLE = 'Ship release <4.2> to "production"?'
APPROVAL = {
    "kind": "approval",
    "key": "browser",
    "data": {
        "artifactId": "release-4.2",
        "artifactType": "release",
        "title": TITLE,
        "description": "37 changes, 2 migrations.",
        "artifact": {"version": "4.2.0", "changes": 37, "notes": "<b>not bold</b>"},
        "actions": ["accept", "reject", "refine", "edit-accept"],
        "approversList": ["alice"],
    },
}


@contextmanager
def chromium(*, scripts: bool) -> Iterator[Any]:
    """Debian's chromium, headless, on a profile of its own; with or without JavaScript."""
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip(
            "Debian's chromium and chromium-driver are not installed (make browser-deps installs them)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="waitgate-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1100,1400",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(argument)
    if not scripts:  # the site setting a person changes to block JavaScript
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium(scripts=True) as driver:
        yield driver


@pytest.fixture
def browser_without_scripts() -> Iterator[Any]:
    with chromium(scripts=False) as driver:
        yield driver


def link_from_inbox(stack: LocalStackHandle, run_id: str, recipient: str) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = run_local(
            ["dev-inbox", "--json", "--run-id", run_id, "--recipient", recipient], stack.environment
        )
        assert listed.returncode == 0 or "no notification" in listed.stderr, listed.stderr
        notices = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
        if notices:
            assert len(notices) == 1
            assert notices[0]["subject"].startswith("Approval needed: Ship release")
            return str(notices[0]["link"])
        time.sleep(0.2)
    raise AssertionError(f"no notification for {recipient} on run {run_id}")


def wait_for_execution(stack: LocalStackHandle, execution_arn: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        described: dict[str, Any] = stack.sfn.describe_execution(executionArn=execution_arn)
        if described["status"] != "RUNNING":
            return described
        time.sleep(0.2)
    raise AssertionError("the execution is still running")


def status_for_a_browser(link: str) -> int:
    request = urllib.request.Request(link, headers={"Accept": "text/html"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_a_person_accepts_from_the_mailed_link(local_stack: LocalStackHandle, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    # Given the generic workflow suspended on an approval for alice
    run_id = f"browser-{uuid.uuid4().hex[:8]}"
    execution_arn = local_stack.sfn.start_execution(
        stateMachineArn=local_stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"interrupt": APPROVAL}),
    )["executionArn"]
    # And alice's personal link, read from the local inbox
    link = link_from_inbox(local_stack, run_id, "alice")
    assert link.startswith(local_stack.api_url + "/interrupts/ow2.hs256.")
    # When she opens it
    browser.get(link)
    wait = WebDriverWait(browser, 20)
    heading = wait.until(expected_conditions.visibility_of_element_located((By.TAG_NAME, "h1")))
    assert heading.text == TITLE
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "approval-page.png"))
    # (opening it changed nothing)
    assert local_stack.sfn.describe_execution(executionArn=execution_arn)["status"] == "RUNNING"
    # And presses Accept with the keyboard
    accept = browser.find_element(By.CSS_SELECTOR, 'button[value="accept"]')
    assert accept.text == "Accept"
    accept.send_keys(Keys.ENTER)
    wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "status"), "Done"))
    browser.save_screenshot(str(SCREENSHOTS / "approval-done.png"))
    # Then the execution SUCCEEDED with her decision
    ended = wait_for_execution(local_stack, execution_arn)
    assert ended["status"] == "SUCCEEDED"
    output = json.loads(ended["output"])
    assert (output["action"], output["decidedBy"]) == ("accept", "alice")
    assert output["decidedAt"].endswith("Z")
    # And reopening the link says it is already resolved, with status 409
    browser.get(link)
    heading = wait.until(expected_conditions.visibility_of_element_located((By.TAG_NAME, "h1")))
    assert heading.text == "Already resolved"
    browser.save_screenshot(str(SCREENSHOTS / "already-resolved.png"))
    assert status_for_a_browser(link) == 409


def test_with_scripts_off_a_person_answers_by_posting_the_form(
    local_stack: LocalStackHandle, browser_without_scripts: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    browser = browser_without_scripts
    wait = WebDriverWait(browser, 20)

    def heading_after(press: Any) -> str:
        """Press a button; the browser posts the form and shows the answer page."""
        old_heading = browser.find_element(By.TAG_NAME, "h1")
        press()
        wait.until(expected_conditions.staleness_of(old_heading))
        return str(wait.until(expected_conditions.visibility_of_element_located((By.TAG_NAME, "h1"))).text)

    # Given the generic workflow suspended on an approval for alice, and a link minted for her
    run = SampleRun(local_stack, "interrupt", {"interrupt": APPROVAL})
    run.suspended_at("Interrupt")
    minted = local_stack.http.post(
        f"/runs/{run.run_id}/interrupts/Interrupt/tokens",
        {"intent": "resolve", "sub": "alice"},
        token=token_for(local_stack, "release-bot", "interrupts:mint"),
    )
    assert minted.status == 201, minted.body
    link = str(minted.json()["url"])
    # When she opens it in a browser that runs no script, and asks for changes without saying which
    browser.get(link)
    assert wait.until(expected_conditions.visibility_of_element_located((By.TAG_NAME, "h1"))).text == TITLE
    refine = browser.find_element(By.CSS_SELECTOR, 'button[value="refine"]')
    assert heading_after(lambda: refine.send_keys(Keys.ENTER)) == "Your answer was not accepted"
    # Then the server's page says why, the address is still the link's own, and nothing changed
    assert "Say what should change before requesting changes." in browser.page_source
    assert browser.current_url == link
    assert run.snapshot()[1]["pendingInterrupt"]["nodeId"] == "Interrupt"
    browser.save_screenshot(str(SCREENSHOTS / "no-script-refused.png"))
    # When she opens the link again, writes a comment and presses Accept
    browser.get(link)
    comment = "Ship it & tell ops? #42 = ok ü"
    browser.find_element(By.ID, "feedback").send_keys(comment)
    accept = browser.find_element(By.CSS_SELECTOR, 'button[value="accept"]')
    assert heading_after(lambda: accept.send_keys(Keys.ENTER)) == "Your answer was recorded"
    # Then the page says what was decided, and what she typed never was in an address
    decided = [element.text for element in browser.find_elements(By.CSS_SELECTOR, ".decided dd")]
    assert decided == ["Accept", comment, "alice"]
    assert browser.current_url == link and "?" not in browser.current_url
    browser.save_screenshot(str(SCREENSHOTS / "no-script-recorded.png"))
    # And the execution SUCCEEDED with her decision and comment
    ended = wait_for_execution(local_stack, run.execution_arn)
    assert ended["status"] == "SUCCEEDED"
    output = json.loads(ended["output"])
    assert (output["action"], output["feedback"], output["decidedBy"]) == ("accept", comment, "alice")
