"""The browsers of the page's tests, started once per session and shared: one that runs the page's
script, one that runs none (the site setting a person changes), and axe-core to check each page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import BROWSERS
from tests.e2e.page.browsers import Axe, BrowserMissing, axe_source, chromium
from tests.e2e.page.person import Person


@pytest.fixture(scope="session")
def scripted_browser() -> Iterator[Any]:
    try:
        with chromium(scripts=True) as driver:
            yield driver
    except BrowserMissing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def plain_browser() -> Iterator[Any]:
    try:
        with chromium(scripts=False) as driver:
            yield driver
    except BrowserMissing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def axe(scripted_browser: Any) -> Axe:
    try:
        return Axe(scripted_browser, axe_source())
    except BrowserMissing as missing:
        pytest.skip(str(missing))


@pytest.fixture
def person(scripted_browser: Any, axe: Axe) -> Person:
    """Someone whose browser runs the page's script."""
    scripted_browser.delete_all_cookies()
    return Person(scripted_browser, axe, scripts=True)


@pytest.fixture
def person_without_scripts(plain_browser: Any, axe: Axe) -> Person:
    """Someone whose browser runs no script at all."""
    return Person(plain_browser, axe, scripts=False)


@pytest.fixture(params=[True, False], ids=["scripts on", "scripts off"])
def anyone(request: pytest.FixtureRequest, scripted_browser: Any, plain_browser: Any, axe: Axe) -> Person:
    """The same person, once with the page's script and once without."""
    scripts = bool(request.param)
    return Person(scripted_browser if scripts else plain_browser, axe, scripts=scripts)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test on the one worker that starts the browsers (tests.e2e.conftest.BROWSERS)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(BROWSERS)
