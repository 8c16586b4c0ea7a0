"""Acting as Slack in tests: an interaction payload as Slack posts it when a button is pressed (the
button's own `action_id` and `value` echoed back), signed as Slack signs (v0 HMAC-SHA256)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any
from urllib.parse import urlencode


def button(blocks: list[dict[str, Any]], action_id: str) -> dict[str, Any]:
    for block in blocks:
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            if element.get("action_id") == action_id:
                return dict(element)
    raise AssertionError(f"no button {action_id} in the message")


def click_body(
    pressed: dict[str, Any], user: str, channel: str, message_ts: str, team: str, action_ts: str | None = None
) -> str:
    """The form body Slack sends: `payload` = block_actions JSON."""
    action = {
        "type": "button",
        "action_id": pressed["action_id"],
        "block_id": "waitgate-decision",
        "text": pressed["text"],
        "action_ts": action_ts or f"{time.time():.6f}",
    }
    if "value" in pressed:
        action["value"] = pressed["value"]
    payload = {
        "type": "block_actions",
        "team": {"id": team, "domain": "local"},
        "user": {"id": user, "username": user.lower(), "team_id": team},
        "api_app_id": "ALOCAL",
        "token": "deprecated-verification-token",
        "container": {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": channel,
            "is_ephemeral": False,
        },
        "trigger_id": "1.2.3",
        "channel": {"id": channel, "name": "directmessage"},
        "response_url": "https://hooks.slack.invalid/actions/T/1/x",
        "actions": [action],
    }
    return urlencode({"payload": json.dumps(payload)})


def signed_headers(body: str, signing_secret: str, timestamp: int | None = None) -> dict[str, str]:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(signing_secret.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256).hexdigest()
    return {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": f"v0={digest}",
    }
