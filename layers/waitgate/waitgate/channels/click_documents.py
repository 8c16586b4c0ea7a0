"""A Slack click as it waits on the clicks queue, between Slack's acknowledgement and its decision
(docs/channels.md, "A click").

Only the parsed click goes on the queue: the ids its button names, who clicked, in which conversation
and on which message, and Slack's `action_ts`. Never the raw body, its signature, Slack's
`response_url` and `trigger_id`, or its deprecated verification token: the decision needs none of
them, and what is not queued cannot leak from the queue.
"""

from __future__ import annotations

from typing import Any, Final

from waitgate.channels.slack_clicks import NotAClickError, SlackClick, action_ts_of
from waitgate.errors import WaitgateError
from waitgate.run.records import RunRef, check_node_id

VERSION: Final = "1"
_FIELDS: Final = (
    "team",
    "user",
    "action",
    "tenant",
    "run",
    "node",
    "interrupt",
    "actionTs",
    "channel",
    "messageTs",
)
MAX_FIELD_CHARS: Final = 256  # every id Slack or waitgate gives is far shorter


def click_document(click: SlackClick) -> dict[str, str]:
    """What the acknowledgement queues for a click of its tenant."""
    return {
        "v": VERSION,
        "team": click.team_id,
        "user": click.user_id,
        "action": click.action,
        "tenant": click.run.tenant_id,
        "run": click.run.run_id,
        "node": click.node_id,
        "interrupt": click.interrupt_id,
        "actionTs": click.action_ts,
        "channel": click.channel_id,
        "messageTs": click.message_ts,
    }


def click_of(document: Any) -> SlackClick:
    """The click a queued document holds; NotAClickError for anything the acknowledgement never
    queues (another version, a missing or odd field): deciding it again could not help."""
    if not isinstance(document, dict) or document.get("v") != VERSION:
        raise NotAClickError("not a queued click of this version")
    values = [document.get(name) for name in _FIELDS]
    if not all(isinstance(value, str) and len(value) <= MAX_FIELD_CHARS for value in values):
        raise NotAClickError("a queued click's fields are short strings")
    team, user, action, tenant, run_id, node, interrupt, action_ts, channel, message_ts = values
    try:
        return SlackClick(
            team_id=str(team),
            user_id=str(user),
            action=str(action),
            run=RunRef.parse(str(tenant), str(run_id)),
            node_id=check_node_id(str(node)),
            interrupt_id=str(interrupt),
            action_ts=action_ts_of(action_ts),
            channel_id=str(channel),
            message_ts=str(message_ts),
        )
    except (ValueError, WaitgateError) as error:
        raise NotAClickError("a queued click names no interrupt or no time") from error
