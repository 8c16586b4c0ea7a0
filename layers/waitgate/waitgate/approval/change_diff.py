"""What `{before, after}` changes: the leaves that differ, as JSON pointers (RFC 6901). Pure: the
page draws them as a diff table, the e-mail and Slack as lines."""

from __future__ import annotations

from typing import Any


class _Absent:
    """A member one side does not have."""

    def __repr__(self) -> str:
        return "absent"


ABSENT: Any = _Absent()


def leaf_changes(before: Any, after: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """(JSON pointer, before, after) of every leaf that differs; an object's members compared one by
    one, anything else (a list, a scalar, a type change) as a whole."""
    if isinstance(before, dict) and isinstance(after, dict):
        found: list[tuple[str, Any, Any]] = []
        for key in [*before, *(k for k in after if k not in before)]:
            child = f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"
            found.extend(leaf_changes(before.get(key, ABSENT), after.get(key, ABSENT), child))
        return found
    if before is ABSENT and after is ABSENT:
        return []
    if _same(before, after):
        return []
    return [(path, before, after)]


def _same(before: Any, after: Any) -> bool:
    """Equal as JSON: 1 and 1.0 are one number, true is not 1."""
    if isinstance(before, bool) or isinstance(after, bool):
        return type(before) is type(after) and before == after
    if isinstance(before, (int, float)) and isinstance(after, (int, float)):
        return before == after
    return type(before) is type(after) and before == after
