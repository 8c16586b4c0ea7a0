"""A click on a Slack message's button, as Slack posts it to the interactivity URL (block_actions).

The body is `application/x-www-form-urlencoded` with one field, `payload` (JSON). Read twice: first,
before the signature is checked, only for the tenant whose signing secret checks it (`claimed_tenant`);
then, once the signature holds, as a whole (`parse_click`). The decision it stands for takes its
`decidedAt` from Slack's `action_ts`, so a retried delivery of the same click is the same request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

from waitgate.channels.slack_blocks import ACTION_PREFIX, OPEN_PAGE_ACTION
from waitgate.errors import WaitgateError
from waitgate.records import RunRef


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
        seconds = float(self.action_ts)
        return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def payload_of(body: str) -> dict[str, Any]:
    fields = parse_qs(body, keep_blank_values=True, max_num_fields=8)
    values = fields.get("payload") or []
    if len(values) != 1:
        raise NotAClickError("the body has no payload field")
    try:
        payload = json.loads(values[0])
    except ValueError as error:
        raise NotAClickError("the payload is not JSON") from error
    if not isinstance(payload, dict):
        raise NotAClickError("the payload is not an object")
    return payload


def claimed_tenant(body: str) -> str | None:
    """The tenant the first of our buttons names: whose signing secret is to check the request.
    None when the body names none (nothing can check it)."""
    try:
        action = _our_action(payload_of(body))
        return _button_value(action)[0].tenant_id
    except (NotAClickError, ValueError, KeyError, TypeError):
        return None


def parse_click(body: str) -> SlackClick:
    payload = payload_of(body)
    if payload.get("type") != "block_actions":
        raise NotAClickError(f"a {str(payload.get('type'))[:40]} payload is not a click")
    action = _our_action(payload)
    run, node_id, interrupt_id = _button_value(action)
    container, channel = _object(payload.get("container")), _object(payload.get("channel"))
    try:
        return SlackClick(
            team_id=str(_member(payload, "team")["id"]),
            user_id=str(_member(payload, "user")["id"]),
            action=str(action["action_id"]).removeprefix(ACTION_PREFIX),
            run=run,
            node_id=node_id,
            interrupt_id=interrupt_id,
            action_ts=str(float(action["action_ts"])),
            channel_id=str(container.get("channel_id") or channel.get("id") or ""),
            message_ts=str(container.get("message_ts") or ""),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise NotAClickError("the click lacks its team, user or action_ts") from error


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
        value = json.loads(str(action["value"]))
        return RunRef.parse(str(value["t"]), str(value["r"])), str(value["n"]), str(value["i"])
    except (KeyError, TypeError, ValueError, WaitgateError) as error:
        raise NotAClickError("the button's value does not name an interrupt") from error


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _member(payload: dict[str, Any], name: str) -> dict[str, Any]:
    member = payload.get(name)
    if not isinstance(member, dict):
        raise KeyError(name)
    return member
