"""A JSON value as a person reads it: text as text, lists as lists, objects as key/value tables, a
list of like objects as one table; long texts and long lists folded (`<details>`, which needs no
script). Past `MAX_DEPTH` levels, the rest as indented JSON. Every value HTML-escaped. Pure.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

MAX_DEPTH = 4
FOLD_TEXT = 600  # characters: a longer text shows its beginning, the rest on request
SHOWN_ITEMS = 10  # a longer list shows these, the rest on request
TABLE_COLUMNS = 6  # a list of objects with more distinct keys than this is a list of tables


def readable(value: Any, depth: int = 0) -> str:
    if value is None:
        return '<span class="none">none</span>'
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return escape(_number(value))
    if isinstance(value, str):
        return _text(value)
    if depth >= MAX_DEPTH:
        return (
            f'<pre class="json" tabindex="0">{escape(json.dumps(value, indent=2, ensure_ascii=False))}</pre>'
        )
    if isinstance(value, list):
        return _list(value, depth)
    if isinstance(value, dict):
        return key_values(value, depth)
    return escape(str(value))


def key_values(members: dict[str, Any], depth: int = 0, caption: str = "") -> str:
    if not members:
        return '<span class="none">none</span>'
    rows = "".join(
        f'<tr><th scope="row">{escape(str(key))}</th><td>{readable(item, depth + 1)}</td></tr>'
        for key, item in members.items()
    )
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f'<table class="kv">{title}<tbody>{rows}</tbody></table>'


def _number(value: float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _text(text: str) -> str:
    if not text:
        return '<span class="none">(empty)</span>'
    if len(text) <= FOLD_TEXT:
        css = "text" if "\n" in text else "line"
        return f'<span class="{css}">{escape(text)}</span>'
    head = text[:200].rsplit(" ", 1)[0] if " " in text[:200] else text[:200]
    return (
        f'<details class="fold"><summary><span class="text">{escape(head)}…</span> '
        f'<span class="more">(show all {len(text):,} characters)</span></summary>'
        f'<div class="text">{escape(text)}</div></details>'
    )


def _list(items: list[Any], depth: int) -> str:
    if not items:
        return '<span class="none">none</span>'
    if all(isinstance(item, dict) and item for item in items):
        table = _table(items, depth)
        if table:
            return table
    scalar = all(not isinstance(item, dict | list) for item in items)
    tag = "ul" if scalar else "ol"
    shown = "".join(f"<li>{readable(item, depth + 1)}</li>" for item in items[:SHOWN_ITEMS])
    html = f'<{tag} class="items">{shown}</{tag}>'
    rest = items[SHOWN_ITEMS:]
    if rest:
        more = "".join(f"<li>{readable(item, depth + 1)}</li>" for item in rest)
        start = f' start="{SHOWN_ITEMS + 1}"' if tag == "ol" else ""
        html += (
            f'<details class="fold"><summary>{len(rest)} more</summary>'
            f'<{tag} class="items"{start}>{more}</{tag}></details>'
        )
    return html


def _table(rows: list[dict[str, Any]], depth: int) -> str:
    """Objects that share their keys, as one table (scrolls on its own on a narrow screen)."""
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    if len(columns) > TABLE_COLUMNS or any(isinstance(v, dict | list) for row in rows for v in row.values()):
        return ""
    head = "".join(f'<th scope="col">{escape(str(column))}</th>' for column in columns)

    def line(row: dict[str, Any]) -> str:
        cells = "".join(
            f"<td>{readable(row[column], depth + 1) if column in row else ''}</td>" for column in columns
        )
        return f"<tr>{cells}</tr>"

    body = "".join(line(row) for row in rows[:SHOWN_ITEMS])
    table = f'<table class="rows"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    html = (
        f'<div class="scroll" tabindex="0" role="region" aria-label="Table of {len(rows)} rows">{table}</div>'
    )
    rest = rows[SHOWN_ITEMS:]
    if rest:
        more = "".join(line(row) for row in rest)
        html += (
            f'<details class="fold"><summary>{len(rest)} more rows</summary><div class="scroll" tabindex="0" '
            f'role="region" aria-label="{len(rest)} more rows"><table class="rows"><thead><tr>{head}</tr>'
            f"</thead><tbody>{more}</tbody></table></div></details>"
        )
    return html
