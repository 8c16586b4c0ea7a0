"""Lambda event filtering (an event source mapping's FilterCriteria), for the local stream dispatch.

moto delivers every DynamoDB stream record to every mapping; Lambda delivers only the records one of
the mapping's filter patterns matches (EventBridge pattern syntax), so on AWS the outbox never runs
for a write that is not an undelivered ending. The operators the template uses are supported here
(values, `prefix`, `exists`); any other is refused when the mapping is created, never ignored.
"""

from __future__ import annotations

from typing import Any

SUPPORTED_OPERATORS = frozenset({"prefix", "exists"})


class UnsupportedPatternError(ValueError):
    """A filter pattern uses an operator the local stack does not evaluate."""


def check_pattern(pattern: Any) -> None:
    """Raise UnsupportedPatternError for an operator `matches` would not evaluate as Lambda does."""
    if isinstance(pattern, dict):
        for value in pattern.values():
            check_pattern(value)
    elif isinstance(pattern, list):
        for rule in pattern:
            if isinstance(rule, dict) and (len(rule) != 1 or not rule.keys() <= SUPPORTED_OPERATORS):
                raise UnsupportedPatternError(f"filter rule {rule} is not supported by the local stack")
    else:
        raise UnsupportedPatternError(f"a pattern's leaves are lists of rules, not {pattern!r}")


def matches(pattern: dict[str, Any], event: Any) -> bool:
    """Whether `event` (a record as JSON) matches `pattern`: every key's rules hold."""
    for key, expected in pattern.items():
        present = isinstance(event, dict) and key in event
        value = event[key] if present else None
        if isinstance(expected, dict):
            if not matches(expected, value):
                return False
        elif not any(_rule_holds(rule, present, value) for rule in expected):
            return False
    return True


def _rule_holds(rule: Any, present: bool, value: Any) -> bool:
    if isinstance(rule, dict) and "exists" in rule:
        return present is bool(rule["exists"])
    if not present:
        return False
    if isinstance(rule, dict):
        return isinstance(value, str) and value.startswith(str(rule["prefix"]))
    values = value if isinstance(value, list) else [value]
    return rule in values
