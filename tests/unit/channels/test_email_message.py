"""The e-mail: what is asked, by whom, by when, the personal link in both parts, nothing remote."""

from __future__ import annotations

import email
import email.policy
import re
from html.parser import HTMLParser

from tests.unit.channels.facts import LINK, pending
from waitgate.channels.email_message import email_content


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags_of(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


def test_both_parts_say_what_by_whom_by_when_and_carry_the_personal_link() -> None:
    # Given a pending 2-of-2 approval for alice
    content = email_content(pending())
    # Then text and HTML each say what is asked, where it comes from, the deadline and the link's expiry
    for part in (content.text, content.html):
        for expected in (
            "Ship release 42?",
            "Release 42 goes to production.",
            "release-42",
            "waitgate-release",
            "2026-11-30 18:00 UTC",
            "2026-11-30 10:30 UTC",
            "personal",
        ):
            assert expected in part, expected
    assert LINK in content.text and LINK in content.html
    assert "Do not forward it" in content.text
    assert content.subject == "Approval needed: Ship release 42?"


def test_the_html_part_loads_nothing_remote_and_links_only_to_the_personal_link() -> None:
    html = email_content(pending()).html
    tags = tags_of(html)
    assert {tag for tag, _ in tags} <= {
        "html",
        "head",
        "meta",
        "title",
        "body",
        "div",
        "p",
        "h1",
        "table",
        "tr",
        "th",
        "td",
        "a",
        "br",
        "span",
        "strong",
    }
    assert [attrs["href"] for tag, attrs in tags if tag == "a"] == [LINK]
    assert not [attrs for _, attrs in tags if "src" in attrs or "srcset" in attrs or "background" in attrs]
    assert not re.search(r"url\(|@import|https?://(?!links\.example\.com/interrupts/)", html)


def test_values_of_the_interrupt_are_escaped() -> None:
    content = email_content(
        pending(
            payload={
                "kind": "approval",
                "key": "k",
                "data": {"actions": ["accept"], "description": '<img src="https://evil.example/x.png">'},
            }
        )
    )
    assert "<img" not in content.html and "&lt;img" in content.html


def test_the_mime_message_is_multipart_alternative_with_the_waitgate_headers() -> None:
    content = email_content(pending())
    parsed = email.message_from_bytes(
        content.mime("waitgate@example.com", "alice@example.com"), policy=email.policy.default
    )
    assert parsed.get_content_type() == "multipart/alternative"
    assert parsed["To"] == "alice@example.com" and "waitgate@example.com" in parsed["From"]
    assert (parsed["X-Waitgate-Run-Id"], parsed["X-Waitgate-Recipient"]) == ("release-42", "alice")
    text = parsed.get_body(preferencelist=("plain",))
    html = parsed.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    assert text.get_content() == content.text and html.get_content().strip() == content.html
    assert LINK not in str(parsed["X-Waitgate-Run-Id"]) and not any(LINK in str(v) for v in parsed.values())
