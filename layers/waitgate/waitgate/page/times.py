"""Times on the page: in UTC and relative to when the page was made ("in 3 h 20 min"), which is what
a browser without scripts shows; the page's script rewrites both in the reader's own time zone and
keeps the relative part current (`submit.html`, the same words). Pure."""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def parse_moment(text: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return parsed.astimezone(UTC) if parsed.tzinfo is not None else None


def utc_text(moment: datetime) -> str:
    """ "Tue 1 Dec 2026, 14:00 UTC"."""
    moment = moment.astimezone(UTC)
    return (
        f"{_DAYS[moment.weekday()]} {moment.day} {_MONTHS[moment.month - 1]} {moment.year}, "
        f"{moment:%H:%M} UTC"
    )


def short_utc_text(moment: datetime, now: datetime | None) -> str:
    """ "14:00 UTC" on the same day as `now`, else the full date."""
    if now is not None and moment.astimezone(UTC).date() == now.astimezone(UTC).date():
        return f"{moment.astimezone(UTC):%H:%M} UTC"
    return utc_text(moment)


def relative_text(moment: datetime, now: datetime) -> str:
    """ "in 3 h 20 min", "5 min ago", "in less than a minute"; a moment not after `now` (a decision
    made a second ago) is in the past: "less than a minute ago"."""
    delta = (moment - now).total_seconds()
    span = _span(int(abs(delta)))
    return f"in {span}" if delta > 0 else f"{span} ago"


def _span(seconds: int) -> str:
    if seconds < 60:
        return "less than a minute"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    days, hours = divmod(hours, 24)
    return f"{days} day{'s' if days != 1 else ''}" + (f" {hours} h" if hours else "")


def moment_html(text: str, now: datetime | None, *, short: bool = False, relative: bool = True) -> str:
    """A `<time>` the script shows in local time, with the relative part after it."""
    moment = parse_moment(text)
    if moment is None:
        return escape(text)
    iso = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    shown = short_utc_text(moment, now) if short else utc_text(moment)
    style = "short" if short else "long"
    html = f'<time datetime="{iso}" data-local="{style}">{escape(shown)}</time>'
    if relative and now is not None:
        html += f' <span class="relative" data-relative="{iso}">({relative_text(moment, now)})</span>'
    return html
