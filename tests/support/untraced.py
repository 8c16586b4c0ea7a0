"""Tests the layer's coverage tracer need not follow (`UNTRACED`: the tracer unset for the test's call).

Branch coverage (sys.settrace on 3.11) costs every Python call and line, in moto and cfn-lint as in
the layer, though only the layer's are recorded: a test whose CPU goes to code outside the layer (a
10,000-item table read through moto's serializer, cfn-lint over the translated template, the
template's resources built on moto) pays about as much again for arcs it does not add. A test
is marked only where every layer arc it runs is also run by another test of the phase: the phase's
coverage data, compared arc by arc before and after the marks, lost none of them (the local stack's
kept-state tests were tried and left traced: they alone run five arcs of adapters/dynamodb_items.py).
The test itself, and every check it makes, runs as before.

pytest-cov's own `no_cover` pauses nothing on an xdist worker (the phases run with `-n 2`; the
tracer was found still set in a `no_cover` test's call, 2026-12-03), so the pause is ours: the
thread's trace function is unset for the call and set again after it (as tests/support/
coverage_boundary.py does around moto), in every mode. Threads the test starts are traced as before.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

UNTRACED = pytest.mark.untraced


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "untraced: the coverage tracer unset for the test's call")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    tracer = sys.gettrace()
    if tracer is None or item.get_closest_marker("untraced") is None:
        return (yield)
    sys.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracer)
