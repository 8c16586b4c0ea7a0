"""The pictures of docs/human-page.md (in docs/pictures/page/), made from the real pages: a local
stack of its own, a run of each kind, its link opened in Debian's chromium (scripts on, UTC, 800 px
wide, light; one at 320 px, dark), each page saved whole as a PNG. `make docs-pictures` runs it:

    python -m tests.e2e.page.docs_pictures docs/pictures/page

It also writes `pictures.json`: the pictures made and a digest of the page's sources they were made
from, so a test can tell when the page changed and the pictures were not made again.
"""

from __future__ import annotations

import json
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

from tests.e2e.conftest import LocalStackHandle, running_stack
from tests.e2e.page.browsers import REPO_ROOT, Axe, chromium
from tests.e2e.page.person import (
    Person,
    inbox_link,
    minted_link,
    output_of,
    resolve_on_the_run,
    start_run,
    waiting_at,
)
from tests.e2e.page.person import status_for_a_browser as status_of
from tests.e2e.page.samples import QUESTIONS, approval
from tests.e2e.waiting import wait_for
from tests.support.page_sources import MANIFEST, page_source_digest

WIDTH = 800


class Camera:
    def __init__(self, folder: Path, driver: Any, scripts: bool) -> None:
        self.folder = folder
        self.driver = driver
        self.person = Person(driver, Axe(driver, ""), scripts=scripts)
        self.made: list[str] = []

    def take(self, name: str, *, width: int = WIDTH, dark: bool = False) -> None:
        """The whole page as it is now, `width` wide."""
        driver = self.driver
        features = [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
        metrics = {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 500}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": int(height)})
        driver.save_screenshot(str(self.folder / f"{name}.png"))
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.made.append(f"{name}.png")


def run_of(stack: LocalStackHandle, machine: str, run_input: dict[str, Any], node: str) -> tuple[str, str]:
    run_id = f"{machine}-{uuid.uuid4().hex[:6]}"
    start_run(stack, machine, run_input, run_id)
    return run_id, minted_link(stack, run_id, node, "alice")


def approval_pictures(stack: LocalStackHandle, camera: Camera, plain: Camera) -> None:
    data = {"requiredApprovals": 2, "approversList": ["ann", "alice", "bob"]}
    run_id = f"release-{uuid.uuid4().hex[:6]}"
    start_run(stack, "interrupt", {"interrupt": approval(**data)}, run_id)
    alice, bob = inbox_link(stack, run_id, "alice"), inbox_link(stack, run_id, "bob")
    waiting_at(stack, run_id, "Interrupt")
    camera.person.open(alice)
    camera.take("approval")
    for title in ("Request changes", "Accept with edits", "Ask a question"):
        camera.person.open_section(title)
    camera.take("approval-sections")
    camera.take("approval-320px-dark", width=320, dark=True)
    camera.person.open(alice)
    camera.person.type("feedback", "Fine by me.")
    camera.person.press("accept")
    camera.take("approval-vote-recorded")
    plain.person.open(bob)
    plain.person.open_section("Request changes")
    plain.person.press("refine")
    plain.take("approval-refused-without-script")
    plain.person.type("text", "Say how to roll the migration back.")
    plain.person.press("refine")
    plain.take("approval-answer")
    camera.person.open(alice)
    camera.take("approval-already-resolved")


def kind_pictures(stack: LocalStackHandle, camera: Camera) -> None:
    clarification = {"kind": "clarification", "key": "deploy", "data": {"questions": QUESTIONS}}
    _, link = run_of(stack, "interrupt", {"interrupt": clarification}, "Interrupt")
    camera.person.open(link)
    camera.take("clarification")
    decision = {"agentId": "triage-agent", "confidence": 0.3, "label": "refund", "amount": 40}
    low = {"decision": decision, "configurable": {"run": {"escalationThreshold": 0.6}}}
    _, link = run_of(stack, "lowConfidence", low, "Escalate")
    camera.person.open(link)
    camera.take("low-confidence")
    _, link = run_of(stack, "externalEvent", {"orderId": "ord_42"}, "AwaitPayment")
    camera.person.open(link)
    camera.take("external-event")
    _, link = run_of(stack, "custom", {}, "PrintLabel")
    camera.person.open(link)
    camera.take("custom")
    run_id = f"conversation-{uuid.uuid4().hex[:6]}"
    start_run(stack, "conversation", {"conversationId": f"c-{run_id}"}, run_id)
    minted_link(stack, run_id, "Start", "alice")
    resolve_on_the_run(stack, run_id, "Start", "alice", {"joined": ["alice"]})
    camera.person.open(minted_link(stack, run_id, "AskScope", "alice"))
    camera.take("conversation-exchange")


def expired_pictures(stack: LocalStackHandle, camera: Camera) -> None:
    """An expired link to a request that still waits, and a link of one the deadline decided."""
    run_id = f"release-{uuid.uuid4().hex[:6]}"
    start_run(stack, "interrupt", {"interrupt": approval(approversList=["alice"])}, run_id)
    link = minted_link(stack, run_id, "Interrupt", "alice", ttlSeconds=1)
    wait_for(lambda: status_of(link) == 410, interval=0.1, what="the link to expire")
    camera.person.open(link)
    camera.take("link-expired")
    run_id = f"release-{uuid.uuid4().hex[:6]}"
    reject = {"resolveWith": {"action": "reject", "feedback": "No decision in time."}}
    interrupt = {**approval(approversList=["alice"]), "timeoutMs": 1500}
    execution = start_run(
        stack, "interrupt", {"interrupt": interrupt, "escalation": {"onDeadline": reject}}, run_id
    )
    link = inbox_link(stack, run_id, "alice")
    output_of(stack, execution)  # the deadline decided, and the run went on with it
    camera.person.open(link)
    camera.take("link-decided-by-deadline")


def make_pictures(folder: Path) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    with (
        tempfile.TemporaryDirectory(prefix="waitgate-pictures-") as state,
        running_stack(Path(state)) as stack,
        chromium(scripts=True) as driver,
        chromium(scripts=False) as bare,
    ):
        for browser in (driver, bare):
            browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
        camera, plain = Camera(folder, driver, True), Camera(folder, bare, False)
        approval_pictures(stack, camera, plain)
        kind_pictures(stack, camera)
        expired_pictures(stack, camera)
    made = sorted([*camera.made, *plain.made])
    manifest = {"pictures": made, "pageSourceDigest": page_source_digest()}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return made


def main(arguments: list[str]) -> int:
    folder = Path(arguments[0]) if arguments else REPO_ROOT / "docs" / "pictures" / "page"
    for name in make_pictures(folder):
        print(f"made {folder / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
