"""How the end-to-end tests wait: for a condition, polled, under one generous bound.

The bound only decides when a test that can no longer pass gives up; nothing is expected to take that
long. A loaded machine (`make test` beside CPU-bound processes, or several suites at once) makes the
stack's work slow, never wrong, so a test waits as long as a slow machine needs and no longer.
"""

import time
from collections.abc import Callable
from typing import Any

WAIT_BOUND_SECONDS = 300.0


def wait_for(
    probe: Any,
    timeout: float = WAIT_BOUND_SECONDS,
    interval: float = 0.2,
    what: str | Callable[[], str] = "the condition",
) -> Any:
    """The first result of `probe()` that is neither None nor False, polled every `interval` seconds.
    `what` names the condition in the failure; a function is called then, to say what was seen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found is not None and found is not False:
            return found
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")
