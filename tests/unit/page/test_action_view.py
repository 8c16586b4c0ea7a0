"""The action and its diff on an approval's page: readable, escaped, words beside the marks."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from waitgate.approval.change_diff import leaf_changes
from waitgate.page.action_view import action_section
from waitgate.payloads.action_fingerprint import action_fingerprint

TRANSFER = {"name": "transfer", "args": {"amount": 100, "to": "acct-2"}, "target": "acct-1"}


class _Cells(HTMLParser):
    """The text of each cell of each body row of the diff table, and all the text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.text: list[str] = []
        self._in_body = False
        self._in_diff = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("class", "diff") in attrs:
            self._in_diff = True
        elif tag == "tbody" and self._in_diff:
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.rows.append([])
        elif tag in ("th", "td") and self._in_body:
            self.rows[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_body and self.rows and self.rows[-1]:
            self.rows[-1][-1] = " ".join((self.rows[-1][-1] + " " + data).split())


def parsed(html: str) -> _Cells:
    cells = _Cells()
    cells.feed(html)
    return cells


def test_the_action_is_shown_with_its_target_args_and_fingerprint() -> None:
    html = action_section({"action": TRANSFER})
    text = " ".join(" ".join(parsed(html).text).split())
    assert "What will be done: transfer on acct-1" in text
    assert "acct-2" in text and action_fingerprint(TRANSFER) in text
    assert 'class="diff"' not in html


def test_a_patch_is_one_row_per_operation() -> None:
    changes = [
        {"op": "replace", "path": "/balance", "value": 900},
        {"op": "remove", "path": "/hold"},
        {"op": "move", "from": "/a", "path": "/b"},
    ]
    assert parsed(action_section({"action": TRANSFER, "changes": changes})).rows == [
        ["/balance", "changed", "", "becomes 900"],
        ["/hold", "removed", "(removed)", ""],
        ["/b", "moved", "from /a", ""],
    ]


def test_before_and_after_show_the_leaves_that_differ() -> None:
    changes = {
        "before": {"balance": 1000, "owner": "ann", "old": True},
        "after": {"balance": 900, "owner": "ann", "new": 1},
    }
    assert parsed(action_section({"action": TRANSFER, "changes": changes})).rows == [
        ["/balance", "changed", "was 1000", "becomes 900"],
        ["/old", "removed", "was yes", ""],
        ["/new", "added", "", "becomes 1"],
    ]


def test_json_equality_decides_what_differs() -> None:
    assert leaf_changes({"n": 1, "f": True}, {"n": 1.0, "f": 1}) == [("/f", True, 1)]
    assert leaf_changes({"a/b": 1}, {"a/b": 2}) == [("/a~1b", 1, 2)]


def test_everything_is_escaped_and_no_action_shows_nothing() -> None:
    hostile: dict[str, Any] = {"name": "<script>x</script>", "args": {}, "target": "<b>"}
    html = action_section({"action": hostile, "changes": [{"op": "add", "path": "/<i>", "value": "<img>"}]})
    assert "<script>" not in html and "<b>" not in html and "<img>" not in html and "<i>" not in html
    assert action_section({}) == ""
