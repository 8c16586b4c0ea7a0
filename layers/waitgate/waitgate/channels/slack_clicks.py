"""A click on a Slack message's button, as Slack posts it to the interactivity URL (block_actions),
and what it must match to count (docs/channels.md, "A click").

The body is `application/x-www-form-urlencoded` with one field, `payload` (JSON). It is read only
after Slack's signature over the raw bytes held (the tenant comes from the request URL), and read
bounded: at most `MAX_BODY_BYTES`, UTF-8, I-JSON nested at most `json_rules.MAX_DEPTH` deep; anything
else is no click. The decision takes its `decidedAt` from Slack's `action_ts`, which must be a time
(`1764496920.000100`: seconds and a fraction), so a retried delivery of the same click is the same
request. A click counts only on a message waitgate posted for the interrupt its button names — the
sent-messages record of that conversation and `ts` — with an action that message offered
(`offered_on`); who may click it is the resolve's to say (the member it reached, or any eligible
approver: buttons are an approval's alone, and its eligibility fails closed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import parse_qs

from waitgate.channels.sent_messages import SentMessage
from waitgate.channels.slack_actions import ACTION_PREFIX, OPEN_PAGE_ACTION
from waitgate.errors import WaitgateError
from waitgate.payloads import json_rules
from waitgate.run.records import RunRef, check_node_id

MAX_BODY_BYTES: Final = 1024 * 1024  # Slack's payloads of our messages are a few KB
_ACTION_TS = re.compile(r"[0-9]{1,11}(\.[0-9]{1,9})?")
_LAST_SECOND: Final = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()
_INTERRUPT_ID = re.compile(r"[0-9A-Za-z]{1,64}")
_SLACK_ID = re.compile(r"[A-Z0-9]{1,40}")  # T…, U…, W…, D…, C…, G…
_MESSAGE_TS = re.compile(r"[0-9]{1,12}\.[0-9]{1,9}")


class NotAClickError(ValueError):
    """The body is not a block_actions payload with one of our buttons in it."""


@dataclass(frozen=True)
class SlackClick:
    team_id: str
    user_id: str
    action: str  # accept, reject, or "open-page" (the page button: nothing to resolve)
    run: RunRef
    node_id: str
    interrupt_id: str
    action_ts: str
    channel_id: str
    message_ts: str

    @property
    def opens_page(self) -> bool:
        return self.action == OPEN_PAGE_ACTION.removeprefix(ACTION_PREFIX)

    @property
    def idempotency_key(self) -> str:
        """One click, however often Slack delivers it."""
        return f"slack:{self.team_id}:{self.channel_id}:{self.message_ts}:{self.action}:{self.action_ts}"

    @property
    def decided_at(self) -> str:
        seconds = float(self.action_ts)  # a time by construction (`parse_click`)
        return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_click(body: bytes) -> SlackClick:
    """The click in a signed body; NotAClickError for anything that is not one of ours, whole."""
    payload = _payload_of(body)
    if payload.get("type") != "block_actions":
        raise NotAClickError("the payload is not a click")
    action = _our_action(payload)
    run, node_id, interrupt_id = _button_value(action)
    container, channel = _object(payload.get("container")), _object(payload.get("channel"))
    try:
        return SlackClick(
            team_id=_text(_member(payload, "team")["id"]),
            user_id=_text(_member(payload, "user")["id"]),
            action=_text(action["action_id"]).removeprefix(ACTION_PREFIX),
            run=run,
            node_id=node_id,
            interrupt_id=interrupt_id,
            action_ts=action_ts_of(action["action_ts"]),
            channel_id=_text(container.get("channel_id") or channel.get("id") or ""),
            message_ts=_text(container.get("message_ts") or ""),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise NotAClickError("the click lacks its team, user or action_ts") from error


def offered_on(click: SlackClick, messages: Iterable[SentMessage]) -> SentMessage | None:
    """The message of ours the click was made on: one posted for the interrupt its button names, into
    the click's conversation, with the click's `ts`. None: not a message waitgate sent for it."""
    if not (_SLACK_ID.fullmatch(click.channel_id) and _MESSAGE_TS.fullmatch(click.message_ts)):
        return None
    for message in messages:
        if message.channel == "slack" and (message.slack_channel, message.message_id) == (
            click.channel_id,
            click.message_ts,
        ):
            return message
    return None


def _payload_of(body: bytes) -> dict[str, Any]:
    if len(body) > MAX_BODY_BYTES:
        raise NotAClickError("the body is larger than any click")
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=8, errors="strict")
    except (UnicodeDecodeError, ValueError) as error:
        raise NotAClickError("the body is not a UTF-8 form") from error
    values = fields.get("payload") or []
    if len(values) != 1:
        raise NotAClickError("the body has no payload field")
    try:
        payload = json_rules.loads(values[0])
    except WaitgateError as error:  # too deep, not I-JSON, not JSON
        raise NotAClickError("the payload is not JSON waitgate reads") from error
    if not isinstance(payload, dict):
        raise NotAClickError("the payload is not an object")
    return payload


def _our_action(payload: dict[str, Any]) -> dict[str, Any]:
    actions = payload.get("actions")
    if not isinstance(actions, list):
        raise NotAClickError("the payload has no actions")
    for action in actions:
        if isinstance(action, dict) and str(action.get("action_id", "")).startswith(ACTION_PREFIX):
            return action
    raise NotAClickError("none of the actions is one of ours")


def _button_value(action: dict[str, Any]) -> tuple[RunRef, str, str]:
    try:
        value = json_rules.loads(_text(action["value"]))
        run = RunRef.parse(_text(value["t"]), _text(value["r"]))
        node_id, interrupt_id = check_node_id(_text(value["n"])), _text(value["i"])
    except (KeyError, TypeError, ValueError, WaitgateError) as error:
        raise NotAClickError("the button's value does not name an interrupt") from error
    if not _INTERRUPT_ID.fullmatch(interrupt_id):
        raise NotAClickError("the button's value does not name an interrupt")
    return run, node_id, interrupt_id


def action_ts_of(value: Any) -> str:
    """Slack's `action_ts` as a time: digits, a fraction, within what a date can be (not nan, inf, 1e20)."""
    if not isinstance(value, str) or not _ACTION_TS.fullmatch(value) or float(value) > _LAST_SECOND:
        raise ValueError("action_ts is not a time")
    return str(float(value))


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _member(payload: dict[str, Any], name: str) -> dict[str, Any]:
    member = payload.get(name)
    if not isinstance(member, dict):
        raise KeyError(name)
    return member
