"""EventBridge Scheduler refuses a one-time schedule whose time has passed, as AWS does.

moto 5.2.5's `EventBridgeSchedulerBackend.create_schedule` stores an `at()` schedule of any date; AWS
answers `ValidationException` when the moment (in the schedule's timezone) is already past. A deadline
created that late must be handled by the caller (waitgate expires it at once: docs/durability.md),
so the tests and the local stack refuse it too. Only UTC and fixed offsets are read; an expression
in another timezone is left to moto as it was.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from local.patches import replace_attribute

_AT = re.compile(r"at\((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\)")


def passed(expression: str, timezone: str | None, now: datetime | None = None) -> bool:
    """Whether `at(...)` in `timezone` (UTC when none) names a moment before `now`."""
    match = _AT.fullmatch((expression or "").strip())
    if match is None or (timezone or "UTC") not in {"UTC", "Etc/UTC", "GMT"}:
        return False
    moment = datetime.fromisoformat(match.group(1)).replace(tzinfo=UTC)
    return moment < (now or datetime.now(UTC))


def install() -> None:
    """Patch moto's (private) scheduler backend create_schedule; idempotent. Pin moto."""
    from moto.scheduler.exceptions import ValidationException
    from moto.scheduler.models import EventBridgeSchedulerBackend

    def refusing_the_past(original: Any) -> Any:
        def create_schedule(self: Any, *args: Any, **kwargs: Any) -> Any:
            expression = kwargs.get("schedule_expression", "")
            if passed(expression, kwargs.get("schedule_expression_timezone")):
                raise ValidationException(f"The schedule expression {expression} is in the past.")
            return original(self, *args, **kwargs)

        return create_schedule

    replace_attribute(EventBridgeSchedulerBackend, "create_schedule", refusing_the_past)
