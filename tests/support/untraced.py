"""Tests the layer's coverage tracer need not follow (pytest-cov's `no_cover`: paused for the call).

Branch coverage (sys.settrace on 3.11) costs every Python call and line, in moto and cfn-lint as in
the layer, though only the layer's are recorded: a test whose CPU goes to code outside the layer (a
10,000-item table read through moto's serializer, cfn-lint over the translated template, the
template's resources built on moto) pays about as much again for arcs it does not add. A test
is marked only where every layer arc it runs is also run by another test of the phase: the phase's
coverage data, compared arc by arc before and after the marks, lost none of them (the local stack's
kept-state tests were tried and left traced: they alone run five arcs of adapters/dynamodb_items.py).
The test itself, and every check it makes, runs as before.
"""

from __future__ import annotations

import pytest

UNTRACED = pytest.mark.no_cover
