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
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local

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


@pytest.fixture
def browser() -> Iterator[Any]:
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
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


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
