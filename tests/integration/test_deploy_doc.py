"""docs/deploy.md's parameter table is template.yaml's Parameters, both ways, with the same defaults."""

from __future__ import annotations

import re
from typing import Any

import pytest

from local.template.sam_template import REPO_ROOT, load_template

DEPLOY_DOC = REPO_ROOT / "docs" / "deploy.md"
# Documented ahead of the change that adds it to the template (issue #27: the samples behind a
# parameter); once it is there, this set must be emptied, or the test fails.
DOCUMENTED_AHEAD: set[str] = set()  # a parameter the table lists before the template has it


def parameter_rows() -> dict[str, str]:
    """Each parameter of the table under "## Parameters" -> its default cell."""
    text = DEPLOY_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Parameters\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        for name in re.findall(r"`(\w+)`", cells[0]):
            assert name not in rows, f"{name} is in the table twice"
            rows[name] = cells[-1]
    return rows


@pytest.fixture(scope="module")
def parameters() -> dict[str, Any]:
    declared: dict[str, Any] = load_template()["Parameters"]
    return declared


def test_the_table_lists_every_template_parameter_and_no_other(parameters: dict[str, Any]) -> None:
    documented = set(parameter_rows())
    assert not parameters.keys() - documented, "add them to docs/deploy.md's table"
    assert documented - parameters.keys() == DOCUMENTED_AHEAD, "not template parameters"
    assert not DOCUMENTED_AHEAD & parameters.keys()


def test_each_rows_default_is_the_templates(parameters: dict[str, Any]) -> None:
    for name, cell in parameter_rows().items():
        if name in DOCUMENTED_AHEAD:
            continue
        declared = parameters[name]
        if "Default" not in declared:
            assert cell == "required", name
        elif declared["Default"] in ("", []):
            assert cell == "empty", name
        else:
            assert cell == f"`{declared['Default']}`", f"{name}: the table says {cell}"
