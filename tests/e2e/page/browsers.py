"""Debian's chromium for the page's browser tests and its pictures: headless, a profile of its own,
with or without JavaScript; axe-core (the npm package, installed under `.cache/` from the lock in
`axe/`, never served by the product) injected into a page to list its accessibility violations."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.e2e.waiting import WAIT_BOUND_SECONDS

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
REPO_ROOT = Path(__file__).resolve().parents[3]
AXE_LOCK = Path(__file__).resolve().parent / "axe"
AXE_HOME = REPO_ROOT / ".cache" / "axe-core"
AXE_SCRIPT = AXE_HOME / "node_modules" / "axe-core" / "axe.min.js"
WAIT_SECONDS = WAIT_BOUND_SECONDS  # a bound on giving up, not an expected time


class BrowserMissing(RuntimeError):
    pass


@contextmanager
def chromium(*, scripts: bool, width: int = 1000, height: int = 1400) -> Iterator[Any]:
    """Debian's chromium, headless, on a profile of its own; with or without JavaScript (the site
    setting a person changes to block it)."""
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        raise BrowserMissing("Debian's chromium and chromium-driver are not installed (make browser-deps)")
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
        "--lang=en-US",
        f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(argument)
    if not scripts:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(WAIT_SECONDS)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def axe_source() -> str:
    """axe-core's script, installed once from the committed lock (`make axe-core` does the same)."""
    if not AXE_SCRIPT.exists():
        if shutil.which("npm") is None:
            raise BrowserMissing("npm is not installed: the accessibility checks need axe-core from npm")
        AXE_HOME.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(AXE_LOCK / name, AXE_HOME / name)
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=AXE_HOME,
            check=True,
            timeout=300,
        )
    return AXE_SCRIPT.read_text(encoding="utf-8")


_RUN_AXE = """
var done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(function (result) {
  done(result.violations.map(function (v) {
    return {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(function (n) {
      return n.target.join(" ") + " " + n.failureSummary;
    })};
  }));
}, function (error) { done([{id: "axe-error", help: String(error), nodes: []}]); });
"""


class Axe:
    """Runs axe-core in a page. A page opened without JavaScript cannot run it, so its DOM, exactly
    as that browser shows it (no script of the page ran), is copied into the scripted browser,
    without its scripts, and checked there."""

    def __init__(self, scripted: Any, source: str) -> None:
        self.scripted = scripted
        self.source = source

    def violations(self, driver: Any, *, scripts: bool) -> list[dict[str, Any]]:
        if scripts:
            return self._run(driver)
        html = re.sub(r"<script\b.*?</script>", "", driver.page_source, flags=re.DOTALL)
        before = self.scripted.current_window_handle
        self.scripted.switch_to.new_window("tab")  # leaves the scripted browser's own page as it is
        try:
            self.scripted.execute_script(
                "document.open(); document.write(arguments[0]); document.close();", html
            )
            return self._run(self.scripted)
        finally:
            self.scripted.close()
            self.scripted.switch_to.window(before)

    def _run(self, driver: Any) -> list[dict[str, Any]]:
        driver.execute_script(self.source)
        found: list[dict[str, Any]] = driver.execute_async_script(_RUN_AXE)
        return found

    def assert_clean(self, driver: Any, *, scripts: bool, where: str = "") -> None:
        found = self.violations(driver, scripts=scripts)
        assert found == [], f"axe-core violations on {where or driver.title}:\n" + json.dumps(found, indent=2)
