"""What the page of every kind but approval shows to decide with, rendered readably: an agent's
decision against its threshold, the event awaited, a custom request's payload, a conversation's
prompt, topic or reason, a clarification's context. Pure; all escaped."""

from __future__ import annotations

from html import escape
from typing import Any

from waitgate.page.kind_forms import AGENT_FIELDS
from waitgate.page.readable import key_values, readable


def kind_details(kind: str, data: dict[str, Any]) -> str:
    if kind == "clarification":
        context = data.get("context")
        return f"<h2>Context</h2>{readable(context)}" if context else ""
    if kind == "low-confidence":
        return _low_confidence(data)
    if kind == "external-event":
        return _external_event(data)
    if kind == "custom":
        shown = f"<p>A request of the kind <code>{escape(str(data.get('customKind', '')))}</code>.</p>"
        if data.get("payload") is not None:
            shown += f"<h2>What it carries</h2>{readable(data['payload'])}"
        return shown
    return _conversation(kind, data)


def _percent(value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value * 100:.0f}%"
    return escape(str(value))


def _low_confidence(data: dict[str, Any]) -> str:
    observed, threshold = data.get("observed"), data.get("threshold")
    decision = data.get("decision")
    agent = escape(str(data.get("agentId", "An agent")))
    label = decision.get("label") if isinstance(decision, dict) else None
    parts = [f"<p><strong>{agent}</strong> decided"]
    parts.append(f' <strong class="label">{escape(str(label))}</strong>' if label is not None else "")
    parts.append(
        f", with a confidence of <strong>{_percent(observed)}</strong>, below the threshold of "
        f"<strong>{_percent(threshold)}</strong> this run asks for. It needs your review.</p>"
    )
    if isinstance(observed, int | float) and isinstance(threshold, int | float):
        parts.append(
            f'<p class="gauge"><meter min="0" max="1" low="{threshold}" optimum="1" value="{observed}" '
            f'aria-label="Confidence {_percent(observed)} of the {_percent(threshold)} needed">'
            f"{_percent(observed)}</meter></p>"
        )
    if isinstance(decision, dict):
        rest = {key: value for key, value in decision.items() if key not in (*AGENT_FIELDS, "label")}
        if rest:
            parts.append(f"<h2>The agent's decision</h2>{key_values(rest)}")
    elif decision is not None:
        parts.append(f"<h2>The agent's decision</h2>{readable(decision)}")
    reasons = data.get("reasons")
    if isinstance(reasons, list) and reasons:
        listed = "".join(f"<li>{escape(str(reason))}</li>" for reason in reasons)
        parts.append(f'<h2>Its reasons</h2><ul class="reasons">{listed}</ul>')
    return "".join(parts)


def _external_event(data: dict[str, Any]) -> str:
    event = escape(str(data.get("eventType", "an event")))
    raw = data.get("correlation")
    correlation: dict[str, Any] = raw if isinstance(raw, dict) else {}
    return (
        f"<p>The run waits for the event <code>{event}</code> from the system that reports it, "
        "matched by:</p>"
        f"{key_values(correlation)}"
        '<p class="hint">Normally that system resolves it on its own. As an operator you can resolve it '
        "by hand below, with the event as it happened.</p>"
    )


def _conversation(kind: str, data: dict[str, Any]) -> str:
    shown = [f"<p>Conversation <code>{escape(str(data.get('conversationId', '')))}</code></p>"]
    if kind == "conversation.start":
        if isinstance(data.get("topic"), str):
            shown.append(f"<p>Topic: {escape(data['topic'])}</p>")
        participants = data.get("participants")
        if isinstance(participants, list) and participants:
            listed = "".join(f"<li>{escape(str(p))}</li>" for p in participants)
            shown.append(f'<h2>Participants</h2><ul class="items">{listed}</ul>')
    if kind == "conversation.close" and isinstance(data.get("reason"), str):
        shown.append(f"<p>Why it closes: {escape(data['reason'])}</p>")
    return "".join(shown)
