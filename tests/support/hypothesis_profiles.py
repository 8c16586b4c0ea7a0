"""Hypothesis' two profiles, and the example counts of the property tests that name their own.

`ci` is what CI runs (the default under CI=true; `make test` there): every property test with the
example count it names, Hypothesis' 100 where it names none, and the blob that replays a failure
printed. `dev`, the default of a developer's `make test` and of a pytest run by hand, tries a fifth
of those (at least 10): the same cases, each a quicker look; CI's run is the full check.
Neither profile has a deadline (Hypothesis' default fails an example slower than 200 ms): a test
asserts no wall-clock time, and `make test` runs the unit and integration tests behind the end-to-end
ones (tests/phases.py). HYPOTHESIS_PROFILE names the profile.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev")
DEV_SHARE = 5  # dev tries one example in five of ci's
DEV_FLOOR = 10


def examples(count: int) -> int:
    """A property test's example count: `count` under ci, a fifth of it (at least 10) under dev."""
    return max(DEV_FLOOR, count // DEV_SHARE) if PROFILE == "dev" else count


def load() -> None:
    settings.register_profile("ci", print_blob=True, deadline=None)
    settings.register_profile("dev", max_examples=examples(100), deadline=None)
    settings.load_profile(PROFILE)


def described() -> str:
    """Which profile runs, as `make test` and pytest's header say it."""
    share = f"a fifth of ci's examples, at least {DEV_FLOOR}" if PROFILE == "dev" else "full example counts"
    return f"hypothesis profile: {PROFILE} ({share}; CI=true or HYPOTHESIS_PROFILE=ci runs ci)"
