"""`waitgate dev-inbox --link`: one line per notice, however many channels reached the person (the
e-mail and the Slack message of a notice carry its topic notice's link)."""

from __future__ import annotations

from local.cli.inbox import links_of


def test_a_notice_reached_on_three_channels_is_one_link_and_a_reminder_another() -> None:
    notices = [
        {"channel": "sns", "link": "http://127.0.0.1:3000/interrupts/first"},
        {"channel": "slack", "link": "http://127.0.0.1:3000/interrupts/first"},
        {"channel": "email", "link": "http://127.0.0.1:3000/interrupts/first"},
        {"channel": "sns", "link": "http://127.0.0.1:3000/interrupts/reminder"},
    ]
    assert links_of(notices) == [
        "http://127.0.0.1:3000/interrupts/first",
        "http://127.0.0.1:3000/interrupts/reminder",
    ]
