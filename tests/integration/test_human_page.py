"""The human page through the inspect handler on moto: every kind renders, hostile strings are
escaped, the CSP is strict and its nonce is the only way a script or style runs."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import boto3
import pytest

from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler
from tests.support.links import BROWSER_ACCEPT, generated_secret, mint_event, token_event

HOSTILE = '<script>alert("x")</script>&"\'<img src=x onerror=alert(1)>'
APPROVAL = {
    "kind": "approval",
    "key": "k",
    "data": {
        "artifactId": "a-1",
        "artifactType": "doc",
        "title": HOSTILE,
        "description": HOSTILE,
        "artifact": {"body": HOSTILE, "</textarea>": "<b>x</b>"},
        "actions": ["accept", "reject", "refine", "edit-accept", "ask"],
    },
}
CLARIFICATION = {
    "kind": "clarification",
    "key": "k",
    "data": {
        "context": {"note": HOSTILE},
        "questions": [
            {"id": "region", "question": "Which region?", "schema": {"enum": ["eu", "us"]}},
            {"id": "dry", "question": "Dry run?", "schema": {"type": "boolean"}},
            {"id": "count", "question": "How many?", "schema": {"type": "integer"}},
            {"id": "why", "question": HOSTILE},
        ],
    },
}
OTHERS = [
    {"kind": "custom", "key": "k", "data": {"customKind": HOSTILE, "payload": {"x": HOSTILE}}},
    {"kind": "external-event", "key": "k", "data": {"eventType": "payment", "correlation": {"id": HOSTILE}}},
    {"kind": "low-confidence", "key": "k", "data": {"agentId": HOSTILE, "threshold": 0.8, "observed": 0.2}},
]


class Elements(HTMLParser):
    """Every start tag with its attributes, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


@pytest.fixture
def harness(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkflowHarness]:
    from waitgate.wiring import composition, settings

    secrets = boto3.client("secretsmanager", region_name="us-east-1")
    monkeypatch.setenv(
        "TOKEN_SECRET_ARN", secrets.create_secret(Name="s", SecretString=generated_secret())["ARN"]
    )
    settings.settings.cache_clear()
    composition.keyring.cache_clear()
    yield WorkflowHarness()
    settings.settings.cache_clear()
    composition.keyring.cache_clear()


def page_for(harness: WorkflowHarness, interrupt: dict[str, Any], intent: str = "resolve") -> dict[str, Any]:
    run = harness.suspend(interrupt)
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    minted = Handler("mint_token")(mint_event(run.run_id, "Interrupt", {"intent": intent, "sub": "alice"}))
    token = json.loads(minted["body"])["token"]
    answer: dict[str, Any] = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    assert answer["statusCode"] == 200, answer["body"]
    return answer


def assert_safe(answer: dict[str, Any]) -> Elements:
    headers, html = answer["headers"], answer["body"]
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    csp = headers["Content-Security-Policy"]
    nonce = re.fullmatch(
        r"default-src 'none'; script-src 'nonce-([A-Za-z0-9_-]{20,})'; style-src 'nonce-\1'; "
        r"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        csp,
    )
    assert nonce, csp
    assert headers["Cache-Control"] == "no-store"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert HOSTILE not in html and "<script>alert" not in html and "<img" not in html
    elements = Elements()
    elements.feed(html)
    for tag, attributes in elements.tags:
        assert not any(name.startswith("on") for name in attributes), (tag, attributes)
        assert "style" not in attributes and "src" not in attributes and "href" not in attributes
        if tag in {"script", "style"}:
            assert attributes["nonce"] == nonce.group(1)
    return elements


def labelled_names(elements: Elements) -> dict[str, str]:
    """Each named control's name and tag (or input type), every one with a label of its own."""
    labels = {a.get("for") for tag, a in elements.tags if tag == "label"}
    named = {}
    for tag, attributes in elements.tags:
        if tag in {"input", "select", "textarea"} and attributes.get("name"):
            assert attributes.get("id") in labels, (tag, attributes)
            named[str(attributes["name"])] = str(attributes.get("type") or tag)
    return named


def test_an_approval_page_escapes_everything_and_offers_one_button_per_action(
    harness: WorkflowHarness,
) -> None:
    # Given an approval whose title, description and artifact are hostile
    # When a browser opens its link
    answer = page_for(harness, APPROVAL)
    # Then the page is safe, and offers exactly the five actions as labelled buttons
    elements = assert_safe(answer)
    buttons = [a["value"] for tag, a in elements.tags if tag == "button" and "data-guard" not in a]
    assert buttons == ["accept", "reject", "refine", "edit-accept", "ask"]
    html = answer["body"]
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    # And every field each action reads is a labelled control: the comment, what should change,
    # the artifact's editor (its fields) and the question
    named = labelled_names(elements)
    assert {"feedback", "scope", "sectionPath", "itemIds", "text", "question"} <= set(named)
    assert named["scope"] == "radio" and named["editedArtifactData.body"] == "text"
    assert "&lt;/textarea&gt;" in html  # the artifact's values in the editor cannot close it
    assert "You decide as" in html and "<strong>alice</strong>" in html


def test_a_clarification_page_has_one_control_per_question_from_its_schema(harness: WorkflowHarness) -> None:
    # Given a clarification with an enum, a boolean, an integer and a free question
    answer = page_for(harness, CLARIFICATION)
    # Then each question has a labelled control of the right type
    elements = assert_safe(answer)
    assert labelled_names(elements) == {
        "answers.region": "radio",
        "answers.dry": "checkbox",
        "answers.count": "number",
        "answers.why": "text",
    }


@pytest.mark.parametrize(
    ("interrupt", "names"),
    [
        (OTHERS[0], {"resumeValue": "textarea"}),
        (OTHERS[1], {"resumeValue": "textarea"}),
        (OTHERS[2], {"comment": "textarea", "decision": "textarea"}),
    ],
    ids=[i["kind"] for i in OTHERS],
)
def test_other_kinds_render_their_data_and_their_form(
    harness: WorkflowHarness, interrupt: dict[str, Any], names: dict[str, str]
) -> None:
    answer = page_for(harness, interrupt)
    elements = assert_safe(answer)
    assert labelled_names(elements) == names


def test_an_inspect_link_shows_the_interrupt_without_a_form_or_script(harness: WorkflowHarness) -> None:
    answer = page_for(harness, APPROVAL, intent="inspect")
    elements = assert_safe(answer)
    assert not [tag for tag, _ in elements.tags if tag in {"form", "script", "button"}]
    assert "not answer it" in answer["body"]


def test_an_invalid_link_gets_a_readable_401_page(harness: WorkflowHarness) -> None:
    answer = Handler("inspect_by_token")(token_event("ow2.hs256.k1.e30.AAAA", accept=BROWSER_ACCEPT))
    assert answer["statusCode"] == 401
    assert_safe(answer)
    assert "This link is not valid" in answer["body"]
