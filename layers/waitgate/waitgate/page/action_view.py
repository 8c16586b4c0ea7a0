"""An action-bound approval on the page: what will be done (`data.action`, readably, with its
fingerprint) and what it changes (`data.changes`) as a diff table: an RFC 6902 patch one row per
operation, `{before, after}` one row per leaf that differs. Pure; all escaped. The diff marks
removed and added values with <del> and <ins> and says so in words too (colour is never the only cue).
"""

from __future__ import annotations

from html import escape
from typing import Any

from waitgate.approval.change_diff import ABSENT, leaf_changes
from waitgate.page.readable import readable
from waitgate.payloads.action_fingerprint import NotCanonicalizableError, action_fingerprint

_OPERATIONS = {
    "add": "added",
    "remove": "removed",
    "replace": "changed",
    "move": "moved",
    "copy": "copied",
    "test": "must be",
}


def action_section(data: dict[str, Any]) -> str:
    """The action and its changes; empty for an approval without `data.action`."""
    action = data.get("action")
    if not isinstance(action, dict):
        return ""
    name = escape(str(action.get("name", "")))
    target = action.get("target")
    on = f" on <code>{escape(str(target))}</code>" if isinstance(target, str) else ""
    parts = [
        '<section class="bound-action" aria-labelledby="action-heading">',
        f'<h2 id="action-heading">What will be done: <code>{name}</code>{on}</h2>',
        f'<div class="artifact">{readable(action.get("args", {}))}</div>',
        _fingerprint(action),
    ]
    changes = data.get("changes")
    if changes is not None:
        parts.append(changes_table(changes))
    parts.append("</section>")
    return "".join(parts)


def _fingerprint(action: dict[str, Any]) -> str:
    try:
        fingerprint = action_fingerprint(action)
    except NotCanonicalizableError:
        return ""
    return f'<p class="hint">Your decision is bound to exactly this action: <code>{fingerprint}</code></p>'


def changes_table(changes: Any) -> str:
    """The diff: a patch's operations, or the leaves `{before, after}` differ in."""
    if isinstance(changes, list):
        rows = [_patch_row(op) for op in changes if isinstance(op, dict)]
    elif isinstance(changes, dict):
        rows = [
            _leaf_row(path, old, new)
            for path, old, new in leaf_changes(changes.get("before"), changes.get("after"))
        ]
    else:
        rows = []
    if not rows:
        return '<p class="hint">It changes nothing.</p>'
    head = "".join(f'<th scope="col">{title}</th>' for title in ("Where", "Change", "Before", "After"))
    return (
        '<table class="diff"><caption>What it changes</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _patch_row(op: dict[str, Any]) -> str:
    kind = str(op.get("op", ""))
    where = _pointer(op.get("path"))
    if kind in ("move", "copy"):
        before = f"from {_pointer(op.get('from'))}"
        return _row(where, _OPERATIONS[kind], before, "")
    after = _ins(op["value"]) if "value" in op else ""
    before = "<span>(removed)</span>" if kind == "remove" else ""
    return _row(where, _OPERATIONS.get(kind, escape(kind)), before, after)


def _leaf_row(path: str, old: Any, new: Any) -> str:
    change = "added" if old is ABSENT else "removed" if new is ABSENT else "changed"
    before = "" if old is ABSENT else _del(old)
    after = "" if new is ABSENT else _ins(new)
    return _row(_pointer(path), change, before, after)


def _row(where: str, change: str, before: str, after: str) -> str:
    return f'<tr><th scope="row">{where}</th><td>{change}</td><td>{before}</td><td>{after}</td></tr>'


def _pointer(path: Any) -> str:
    return f"<code>{escape(str(path) or '/')}</code>" if isinstance(path, str) else ""


def _del(value: Any) -> str:
    return f'<del><span class="visually-hidden">was </span>{readable(value)}</del>'


def _ins(value: Any) -> str:
    return f'<ins><span class="visually-hidden">becomes </span>{readable(value)}</ins>'
