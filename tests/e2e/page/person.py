"""A person at a browser, on a signed link of the local stack: opens it, reads it, fills fields as a
person does (typing, ticking, choosing), presses a button, and sees the page that comes back. Every
wait is for something the page shows, never for time."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from typing import Any

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.page.browsers import WAIT_SECONDS, Axe
from tests.e2e.test_kinds_e2e import token_for
from tests.e2e.waiting import wait_for


class Person:
    def __init__(self, driver: Any, axe: Axe, *, scripts: bool) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        self.axe = axe
        self.scripts = scripts
        self.wait = WebDriverWait(driver, WAIT_SECONDS)

    # reading
    def open(self, link: str) -> str:
        self.driver.get(link)
        return self.heading()

    def heading(self) -> str:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions

        return str(
            self.wait.until(expected_conditions.visibility_of_element_located((By.TAG_NAME, "h1"))).text
        )

    def text(self, css: str = "main") -> str:
        return str(self.find(css).text)

    def texts(self, css: str) -> list[str]:
        from selenium.webdriver.common.by import By

        return [str(element.text) for element in self.driver.find_elements(By.CSS_SELECTOR, css)]

    def terms(self, css: str) -> dict[str, str]:
        """A description list (`dl`) of the page as its terms and what each says."""
        return dict(zip(self.texts(f"{css} dt"), self.texts(f"{css} dd"), strict=True))

    def find(self, css: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def has(self, css: str) -> bool:
        from selenium.webdriver.common.by import By

        return bool(self.driver.find_elements(By.CSS_SELECTOR, css))

    def field(self, name: str) -> Any:
        """The control a person types into for the form field `name` (a date-time's visible one)."""
        return self.find(f'[name="{name}"]:not([type=hidden]), [data-name="{name}"]')

    def error_beside(self, name: str) -> str:
        """The error shown in the field of `name` (its own box, or its choices' fieldset)."""
        control = self.find(f'[name="{name}"], [data-name="{name}"]')
        box = control.find_element("xpath", "ancestor::*[@data-path][1]")
        shown = str(box.find_element("css selector", ".error").text)
        return shown.removeprefix("Error:").strip()  # the words a screen reader hears first

    def assert_accessible(self, where: str = "") -> None:
        self.axe.assert_clean(self.driver, scripts=self.scripts, where=where or self.heading())

    # doing
    def open_section(self, title: str) -> None:
        from selenium.webdriver.common.by import By

        for summary in self.driver.find_elements(By.CSS_SELECTOR, "details.action > summary"):
            if summary.text == title:
                if summary.find_element("xpath", "..").get_attribute("open") is None:
                    summary.click()
                return
        raise AssertionError(f"no section {title!r}")

    def type(self, name: str, text: str) -> None:
        from selenium.webdriver.common.keys import Keys

        element = self.field(name)
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(Keys.DELETE)
        if text:
            element.send_keys(text)

    def pick(self, name: str, value: str) -> None:
        """A date or date-time input, as its picker sets it (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`)."""
        self.driver.execute_script(
            "var el = arguments[0]; el.value = arguments[1];"
            "el.dispatchEvent(new Event('input', {bubbles: true}));"
            "el.dispatchEvent(new Event('change', {bubbles: true}));",
            self.field(name),
            value,
        )

    def choose(self, name: str, value: str) -> None:
        """Click the label of a radio or checkbox, as a person does."""
        control = self.find(f'input[name="{name}"][value="{value}"]')
        self.find(f'label[for="{control.get_attribute("id")}"]').click()

    def tick(self, name: str) -> None:
        control = self.find(f'input[name="{name}"]')
        if not control.is_selected():
            self.find(f'label[for="{control.get_attribute("id")}"]').click()

    def select(self, name: str, text: str) -> None:
        from selenium.webdriver.support.ui import Select

        Select(self.field(name)).select_by_visible_text(text)

    def press(self, value: str) -> str:
        """Press a button; the browser posts the form and shows the page that comes back."""
        page = self.find("html")
        self.find(f'button[name="action"][value="{value}"]').click()
        self.wait_for_a_new_page(page)
        return self.heading()

    def wait_for_a_new_page(self, old_page: Any) -> None:
        """Until the page shown is another document than `old_page`'s, and it has loaded."""
        from selenium.common.exceptions import WebDriverException

        def replaced(driver: Any) -> bool:
            try:
                old_page.is_enabled()
            except WebDriverException:  # stale, or "does not belong to the document": replaced
                return bool(driver.execute_script("return document.readyState") == "complete")
            return False

        self.wait.until(replaced)

    def press_and_stay(self, value: str) -> None:
        """Press a button the page's script stops (it found something to correct)."""
        from selenium.webdriver.support import expected_conditions

        self.find(f'button[name="action"][value="{value}"]').click()
        self.wait.until(
            expected_conditions.presence_of_element_located(("css selector", "[data-script-error]"))
        )


def new_run_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def start_run(stack: LocalStackHandle, machine: str, run_input: dict[str, Any], run_id: str) -> str:
    arn: str = stack.sfn.start_execution(
        stateMachineArn=stack.state_machines[machine], name=run_id, input=json.dumps(run_input)
    )["executionArn"]
    return arn


def wait_until(probe: Any, what: str) -> Any:
    return wait_for(probe, interval=0.1, what=what)


def waiting_at(stack: LocalStackHandle, run_id: str, node_id: str) -> None:
    def waits() -> bool:
        answer = stack.http.get(f"/runs/{run_id}", token=token_for(stack, "reader", "runs:read"))
        return answer.status == 200 and answer.json().get("pendingInterrupt", {}).get("nodeId") == node_id

    wait_until(waits, f"run {run_id} to wait at {node_id}")


def minted_link(stack: LocalStackHandle, run_id: str, node_id: str, sub: str, **more: Any) -> str:
    waiting_at(stack, run_id, node_id)
    minted = stack.http.post(
        f"/runs/{run_id}/interrupts/{node_id}/tokens",
        {"intent": "resolve", "sub": sub, **more},
        token=token_for(stack, "release-bot", "interrupts:mint"),
    )
    assert minted.status == 201, minted.body
    return str(minted.json()["url"])


def inbox_link(stack: LocalStackHandle, run_id: str, recipient: str) -> str:
    def notice() -> str | None:
        listed = run_local(
            ["dev-inbox", "--json", "--run-id", run_id, "--recipient", recipient], stack.environment
        )
        assert listed.returncode == 0 or "no notification" in listed.stderr, listed.stderr
        notices = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
        return str(notices[0]["link"]) if notices else None

    link: str = wait_until(notice, f"a notification for {recipient} on run {run_id}")
    return link


def resolve_on_the_run(stack: LocalStackHandle, run_id: str, node_id: str, sub: str, value: Any) -> int:
    answer = stack.http.post(
        f"/runs/{run_id}/interrupts/{node_id}",
        {"resumeValue": value},
        token=token_for(stack, sub, "approvals:respond"),
    )
    assert answer.status in {200, 202}, answer.body
    return answer.status


def finished(stack: LocalStackHandle, execution_arn: str) -> dict[str, Any]:
    def ended() -> dict[str, Any] | None:
        described: dict[str, Any] = stack.sfn.describe_execution(executionArn=execution_arn)
        return None if described["status"] == "RUNNING" else described

    execution: dict[str, Any] = wait_until(ended, "the execution to end")
    assert execution["status"] == "SUCCEEDED", execution
    return execution


def output_of(stack: LocalStackHandle, execution_arn: str) -> Any:
    return json.loads(finished(stack, execution_arn)["output"])


def status_for_a_browser(link: str) -> int:
    request = urllib.request.Request(link, headers={"Accept": "text/html"})
    try:
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
