"""The local stack's kept state as a document: its start-up line, and a file it cannot read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from local.state.kept_state import NOT_KEPT, KeptState, KeptStateUnreadableError, start_line


def summary_of(**parts: Any) -> str:
    return KeptState(**parts).summary()


def test_the_summary_counts_what_is_kept() -> None:
    assert summary_of(tables={"A": [{}, {}], "B": [{}]}, secrets={"S": "x"}) == "3 table items, 1 secret"
    assert summary_of(executions=[{}], state_machines=[{}, {}]) == (
        "2 state machines of your own, 1 waiting execution"
    )
    assert summary_of() == ""


@pytest.mark.parametrize(
    ("kept", "fresh", "notices", "found"),
    [
        (KeptState(), False, 0, "starting empty (nothing kept yet)"),
        (KeptState(), True, 0, "starting empty (--fresh)"),
        (
            KeptState(tables={"T": [{}]}, executions=[{}]),
            False,
            25,
            "restored 1 table item, 1 waiting execution (started again), 25 notices",
        ),
        (
            KeptState(executions=[{}, {}]),
            False,
            1,
            "restored 2 waiting executions (started again), 1 notice",
        ),
    ],
    ids=["first start", "fresh", "restart", "restart of several"],
)
def test_the_start_line_says_what_was_found_and_what_is_not_kept(
    kept: KeptState, fresh: bool, notices: int, found: str
) -> None:
    line = start_line(".waitgate/", kept, fresh, notices)
    assert (
        line
        == f"state kept in .waitgate/: {found}; not kept across restarts: {NOT_KEPT} (docs/local-stack.md)"
    )
    assert "\n" not in line


def test_a_round_trip_keeps_everything(tmp_path: Path) -> None:
    kept = KeptState(tables={"T": [{"pk": {"S": "a"}}]}, secrets={"S": "v"}, executions=[{"name": "r"}])
    kept.write(tmp_path / "state.json")
    assert KeptState.load(tmp_path / "state.json") == kept
    assert KeptState.load(tmp_path / "missing.json") == KeptState()


@pytest.mark.parametrize("content", ["{not json", '{"version": 99}'], ids=["torn", "another version"])
def test_a_file_it_cannot_read_stops_the_start_with_one_line(tmp_path: Path, content: str) -> None:
    path = tmp_path / "state.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(KeptStateUnreadableError) as refused:
        KeptState.load(path)
    assert "--fresh" in str(refused.value) and "\n" not in str(refused.value)
