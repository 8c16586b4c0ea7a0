"""The Slack message of one interrupt for one recipient, in Block Kit (docs/channels.md).

Pending: a header (what is asked), the description, a context line (run, step, workflow), the
deadline and the quorum's progress, one button per action a click can say (Accept, Reject: each
carries the interrupt in its `value`, and Slack echoes `action_id` and `value` back), and a button
that opens the recipient's own page for what needs a form (request changes, accept with edits, ask,
a clarification's answers). Decided: the same header and context, the outcome ("Accepted by alice at
10:02 UTC"), and no buttons. Texts are cut to Slack's limits. Slack's three control characters (`&`,
`<`, `>`) are escaped in every text sent, the notification `text` and every text in the blocks
(plain_text too), so an interrupt's own words can never mention `<!channel>` or render a
`<https://…|link>`; the one markup of ours, a mention of the recipient, is added after escaping.
"""

from __future__ import annotations

import json
from typing import Any

from waitgate.channels.message_facts import ACTION_LABELS, MessageFacts, names, outcome_line, shown_time
from waitgate.channels.slack_actions import ACTION_PREFIX, OPEN_PAGE_ACTION

METADATA_EVENT = "waitgate_interrupt"
Block = dict[str, Any]
_HEADER_LIMIT, _SECTION_LIMIT, _BUTTON_LIMIT = 150, 3000, 75
_BUTTON_STYLE = {"accept": "primary", "reject": "danger"}


def button_value(facts: MessageFacts) -> str:
    """What a button carries for the interaction endpoint: which interrupt (never a token)."""
    value = {"t": facts.tenant_id, "r": facts.run_id, "n": facts.node_id, "i": facts.interrupt_id}
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def message_metadata(facts: MessageFacts) -> dict[str, Any]:
    """Slack message metadata: which interrupt and recipient a message is about (for programs)."""
    return {
        "event_type": METADATA_EVENT,
        "event_payload": {
            "tenantId": facts.tenant_id,
            "runId": facts.run_id,
            "nodeId": facts.node_id,
            "interruptId": facts.interrupt_id,
            "kind": facts.kind,
            "recipient": facts.recipient,
        },
    }


def fallback_text(facts: MessageFacts) -> str:
    """The notification text (and what a client without blocks shows)."""
    outcome = outcome_line(facts)
    return _fitted(f"{facts.subject} ({outcome})" if outcome else facts.subject, _SECTION_LIMIT)


def message_blocks(facts: MessageFacts) -> list[Block]:
    blocks: list[Block] = [
        {"type": "header", "text": {"type": "plain_text", "text": _fitted(facts.title, _HEADER_LIMIT)}}
    ]
    if facts.description:
        blocks.append({"type": "section", "text": _mrkdwn(_fitted(facts.description, _SECTION_LIMIT))})
    if facts.bound_action:
        blocks.append(_section(_action_text(facts)))
    blocks.append({"type": "context", "elements": [_mrkdwn(_where(facts))]})
    if facts.status != "pending":
        blocks.append(_section(f"*{_escaped(outcome_line(facts))}*"))
        return blocks
    blocks.append({"type": "section", "fields": [_mrkdwn(field) for field in _fields(facts)]})
    blocks.append({"type": "actions", "block_id": "waitgate-decision", "elements": _buttons(facts)})
    blocks.append({"type": "context", "elements": [_mrkdwn(_link_note(facts))]})
    return blocks


def _action_text(facts: MessageFacts) -> str:
    """*Action:* the action; *Changes:* one bullet per change (the page has the diff table)."""
    text = f"*Action:* {_escaped(facts.bound_action)}"
    if facts.changes:
        text += "\n*Changes:*\n" + "\n".join(f"• {_escaped(line)}" for line in facts.changes)
    return text


def _link_note(facts: MessageFacts) -> str:
    if not facts.link:  # a shared channel: the personal link came by e-mail or DM only
        return "To request changes or answer on the page, open your personal link (sent to you alone)."
    return (
        "The page button opens your personal link: it answers as you, do not share it. "
        f"It works until {_escaped(shown_time(facts.link_expires_at))}."
    )


def _where(facts: MessageFacts) -> str:
    parts = [f"Run `{_escaped(facts.run_id)}`", f"step `{_escaped(facts.node_id)}`"]
    if facts.workflow:
        parts.append(f"workflow `{_escaped(facts.workflow)}`")
    return " · ".join(parts)


def _fields(facts: MessageFacts) -> list[str]:
    deadline = _escaped(shown_time(facts.deadline)) if facts.deadline else "none"
    fields = [f"*Deadline*\n{deadline}"]
    if facts.progress is not None:
        accepted = facts.progress.accepted_by
        so_far = f" ({_escaped(names(accepted))})" if accepted else ""
        fields.append(f"*Approvals*\n{len(accepted)} of {facts.progress.required}{so_far}")
    return fields


def _buttons(facts: MessageFacts) -> list[Block]:
    value = button_value(facts)
    buttons: list[Block] = []
    for action in facts.button_actions:
        button: Block = {
            "type": "button",
            "action_id": f"{ACTION_PREFIX}{action}",
            "text": {"type": "plain_text", "text": _escaped(ACTION_LABELS[action])},
            "value": value,
        }
        if action in _BUTTON_STYLE:
            button["style"] = _BUTTON_STYLE[action]
        buttons.append(button)
    if not facts.link:
        return buttons
    buttons.append(
        {
            "type": "button",
            "action_id": OPEN_PAGE_ACTION,
            "text": {"type": "plain_text", "text": _fitted(_page_label(facts), _BUTTON_LIMIT)},
            "url": facts.link,
            "value": value,
        }
    )
    return buttons


def _page_label(facts: MessageFacts) -> str:
    if facts.form_actions:
        return " / ".join(ACTION_LABELS[a] for a in facts.form_actions) + "…"
    return "Answer on the page…" if facts.kind != "approval" else "Open the page"


def _section(text: str) -> Block:
    return {"type": "section", "text": _mrkdwn(_cut(text, _SECTION_LIMIT))}


def _mrkdwn(text: str) -> Block:
    return {"type": "mrkdwn", "text": text}


def _escaped(text: str) -> str:
    """Slack's three control characters, in mrkdwn and in every other text: &, < and >."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _fitted(text: str, limit: int) -> str:
    """`text` escaped, cut so that the escaped text fits `limit` (never inside an entity)."""
    escaped = _escaped(text)
    if len(escaped) <= limit:
        return escaped
    kept = text[: limit - 1]
    while len(_escaped(kept)) > limit - 1:
        kept = kept[:-1]
    return _escaped(kept) + "…"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
