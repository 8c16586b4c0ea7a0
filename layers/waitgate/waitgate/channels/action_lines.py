"""An action-bound approval in a message (e-mail, Slack, the inbox's summary): the action in one
line and what it changes, one line per change. Plain text, JSON values in compact form; the page
shows the same as a diff table."""

from __future__ import annotations

import json
from typing import Any, Final

from waitgate.approval.change_diff import ABSENT, leaf_changes

MAX_CHANGE_LINES: Final = 10  # the rest is on the page
_VALUE_LIMIT: Final = 120


def action_line(data: dict[str, Any]) -> str:
    """`transfer on acct-1: {"amount":100,"to":"acct-2"}`; empty without `data.action`."""
    action = data.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("name"), str):
        return ""
    target = action.get("target")
    on = f" on {target}" if isinstance(target, str) else ""
    return f"{action['name']}{on}: {_compact(action.get('args', {}))}"


def change_lines(data: dict[str, Any]) -> tuple[str, ...]:
    """`/balance: 1000 → 900`, `/hold: removed`, ...; at most MAX_CHANGE_LINES, then `… and N more`."""
    changes = data.get("changes")
    if isinstance(changes, list):
        lines = [_operation(op) for op in changes if isinstance(op, dict)]
    elif isinstance(changes, dict):
        lines = [
            _leaf(path, old, new)
            for path, old, new in leaf_changes(changes.get("before"), changes.get("after"))
        ]
    else:
        return ()
    if len(lines) > MAX_CHANGE_LINES:
        more = len(lines) - MAX_CHANGE_LINES
        lines = [*lines[:MAX_CHANGE_LINES], f"… and {more} more (on the page)"]
    return tuple(lines)


def _operation(op: dict[str, Any]) -> str:
    kind, path = str(op.get("op", "")), str(op.get("path", ""))
    if kind == "remove":
        return f"{path or '/'}: removed"
    if kind in ("move", "copy"):
        return f"{path or '/'}: {'moved' if kind == 'move' else 'copied'} from {op.get('from', '')}"
    said = {"add": "added", "replace": "becomes", "test": "must be"}.get(kind, kind)
    return f"{path or '/'}: {said} {_compact(op.get('value'))}"


def _leaf(path: str, old: Any, new: Any) -> str:
    if old is ABSENT:
        return f"{path or '/'}: added {_compact(new)}"
    if new is ABSENT:
        return f"{path or '/'}: removed (was {_compact(old)})"
    return f"{path or '/'}: {_compact(old)} → {_compact(new)}"


def _compact(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= _VALUE_LIMIT else text[: _VALUE_LIMIT - 1] + "…"
