"""The handlers are deployed without the local stack: nothing in functions/ may import `local`
(import-linter holds the layer's own contracts; functions/ is not a package it can see)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

FUNCTIONS = Path(__file__).resolve().parents[3] / "functions"


def imported_roots(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("handler", sorted(FUNCTIONS.glob("*/app.py")), ids=lambda p: p.parent.name)
def test_a_handler_never_imports_the_local_stack(handler: Path) -> None:
    # Given a function's handler / Then it imports only what Lambda will have: no `local`, no tests
    assert not imported_roots(handler) & {"local", "tests", "bench"}
