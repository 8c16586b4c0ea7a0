"""A local stand-in of the Slack Web API, started by the local stack (nothing reaches slack.com).

It answers as Slack does — HTTP 200 with `{"ok": true, ...}` or `{"ok": false, "error": "..."}`, a
bearer bot token checked on every call — for the methods waitgate uses: `chat.postMessage` (a member
id as channel opens the DM, as Slack does), `chat.update`, `chat.postEphemeral`, `views.open` and
`auth.test`. Every call is recorded (`GET /_standin/calls`), and each posted message, as it is after
its updates, goes to the stack's inbox (`waitgate dev-inbox --channel slack`).

A test can make it fail as Slack would: `POST /_standin/failures {"channel": "U…", "status": 500}`
(or `"error": "ratelimited"` …) answers every call for that channel so until `DELETE /_standin/failures`.
The app's bot token and signing secret are kept in the state directory (`slack-app.json`), so a
restart signs as before; local.json names the API URL, the signing secret and the interactions URL.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from werkzeug.serving import BaseWSGIServer, make_server
from werkzeug.wrappers import Request, Response

logger = logging.getLogger(__name__)
TEAM_ID = "TLOCAL0001"
BOT_USER = "UBOTLOCAL1"
Recorder = Callable[[dict[str, Any], bool], None]  # (the message as it is now, whether it is an update)


@dataclass(frozen=True)
class SlackApp:
    """The local Slack app: what a real one gets from api.slack.com (bot token, signing secret)."""

    bot_token: str
    signing_secret: str
    team_id: str = TEAM_ID

    @classmethod
    def load_or_create(cls, path: Path) -> SlackApp:
        try:
            return cls(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            app = cls(bot_token=f"xoxb-local-{secrets.token_hex(12)}", signing_secret=secrets.token_hex(16))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(asdict(app)) + "\n", encoding="utf-8")
            path.chmod(0o600)
            return app

    def secret_string(self) -> str:
        """The tenant's Slack secret, as docs/channels.md says to store it."""
        return json.dumps(
            {"botToken": self.bot_token, "signingSecret": self.signing_secret, "teamId": self.team_id}
        )


class SlackWebApiStandIn:
    """The WSGI app: Slack's Web API methods, the recorded calls, the failures to answer."""

    def __init__(self, app: SlackApp, record: Recorder) -> None:
        self._app, self._record = app, record
        self._lock = threading.Lock()
        self._calls: list[dict[str, Any]] = []
        self._messages: dict[tuple[str, str], dict[str, Any]] = {}
        self._failures: dict[str, dict[str, Any]] = {}
        self._last_ts = 0.0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        response = self._answer(request)
        return response(environ, start_response)

    def _answer(self, request: Request) -> Response:
        if request.path == "/_standin/calls":
            with self._lock:
                return _json(list(self._calls))
        if request.path == "/_standin/failures":
            return self._failures_answer(request)
        if request.method != "POST" or not request.path.startswith("/api/"):
            return _json({"ok": False, "error": "unknown_method"}, 404)
        method = request.path.removeprefix("/api/")
        arguments = _arguments(request)
        answer, status = self._method(method, arguments, request.headers.get("Authorization", ""))
        with self._lock:
            self._calls.append({"method": method, "arguments": arguments, "answer": answer, "status": status})
        return _json(answer, status)

    def _failures_answer(self, request: Request) -> Response:
        with self._lock:
            if request.method == "DELETE":
                self._failures.clear()
            elif request.method == "POST":
                failure = json.loads(request.get_data(as_text=True) or "{}")
                self._failures[str(failure["channel"])] = failure
            return _json({"ok": True, "failures": list(self._failures.values())})

    def _method(
        self, method: str, arguments: dict[str, Any], authorization: str
    ) -> tuple[dict[str, Any], int]:
        if authorization != f"Bearer {self._app.bot_token}":
            return {"ok": False, "error": "not_authed" if not authorization else "invalid_auth"}, 200
        failure = self._failures.get(str(arguments.get("channel", "")))
        if failure is not None:
            return {"ok": False, "error": str(failure.get("error", "internal_error"))}, int(
                failure.get("status", 200)
            )
        handler = {
            "chat.postMessage": self._post,
            "chat.update": self._update,
            "chat.postEphemeral": self._ephemeral,
            "views.open": _view,
            "auth.test": self._auth_test,
        }.get(method)
        if handler is None:
            return {"ok": False, "error": "unknown_method"}, 200
        return handler(arguments), 200

    def _post(self, arguments: dict[str, Any]) -> dict[str, Any]:
        channel = str(arguments.get("channel") or "")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        if channel[:1] in {"U", "W"}:
            channel = "D" + channel[1:]  # the app's DM with that member
        message = {
            "type": "message",
            "user": BOT_USER,
            "text": arguments.get("text", ""),
            "blocks": _blocks(arguments.get("blocks")),
            "ts": self._new_ts(),
            "metadata": arguments.get("metadata"),
        }
        with self._lock:
            self._messages[(channel, message["ts"])] = message
        self._record({**message, "channel": channel}, False)
        return {"ok": True, "channel": channel, "ts": message["ts"], "message": message}

    def _update(self, arguments: dict[str, Any]) -> dict[str, Any]:
        key = (str(arguments.get("channel", "")), str(arguments.get("ts", "")))
        with self._lock:
            message = self._messages.get(key)
            if message is None:
                return {"ok": False, "error": "message_not_found"}
            message.update(
                text=arguments.get("text", message["text"]), blocks=_blocks(arguments.get("blocks"))
            )
            shown = dict(message)
        self._record({**shown, "channel": key[0]}, True)
        return {"ok": True, "channel": key[0], "ts": key[1], "text": shown["text"], "message": shown}

    def _ephemeral(self, arguments: dict[str, Any]) -> dict[str, Any]:
        if not arguments.get("channel") or not arguments.get("user"):
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "message_ts": self._new_ts()}

    def _auth_test(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "team": "waitgate local", "team_id": self._app.team_id, "user_id": BOT_USER}

    def _new_ts(self) -> str:
        with self._lock:
            self._last_ts = max(time.time(), self._last_ts + 0.000001)
            return f"{self._last_ts:.6f}"


def _view(arguments: dict[str, Any]) -> dict[str, Any]:
    if not arguments.get("trigger_id"):
        return {"ok": False, "error": "invalid_trigger_id"}
    return {"ok": True, "view": {"id": "V" + secrets.token_hex(5).upper(), **_object(arguments.get("view"))}}


def _arguments(request: Request) -> dict[str, Any]:
    """slack_sdk sends JSON for most methods and form fields for some, as Slack accepts both."""
    if request.mimetype == "application/json":
        loaded = json.loads(request.get_data(as_text=True) or "{}")
        return loaded if isinstance(loaded, dict) else {}
    return dict(request.form.items())


def _blocks(value: Any) -> list[Any]:
    if isinstance(value, str):
        value = json.loads(value or "[]")
    return value if isinstance(value, list) else []


def _object(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        value = json.loads(value or "{}")
    return value if isinstance(value, dict) else {}


def _json(body: Any, status: int = 200) -> Response:
    return Response(json.dumps(body), status=status, content_type="application/json; charset=utf-8")


class SlackStandInServer:
    """The stand-in on its own threaded server, bound at construction (port 0: any free one)."""

    def __init__(self, standin: SlackWebApiStandIn, port: int = 0) -> None:
        self._server: BaseWSGIServer = make_server("127.0.0.1", port, standin, threaded=True)
        self._thread = threading.Thread(target=self._server.serve_forever, name="slack-standin", daemon=True)

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/api/"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=10)


def inbox_line(message: dict[str, Any], updated: bool) -> dict[str, Any]:
    """What `waitgate dev-inbox` shows of a Slack message (later lines of an update replace it)."""
    metadata = _object(message.get("metadata"))
    about = _object(metadata.get("event_payload"))
    shown = {"channel": message["channel"], "ts": message["ts"], "blocks": message.get("blocks", [])}
    line: dict[str, Any] = {"messageId": f"slack:{message['channel']}:{message['ts']}", "message": shown}
    if updated:
        return {**line, "updates": True}
    return {
        **line,
        "sentAt": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "channel": "slack",
        "recipient": str(about.get("recipient", "")),
        "kind": str(about.get("kind", "")),
        "runId": str(about.get("runId", "")),
        "nodeId": str(about.get("nodeId", "")),
        "subject": str(message.get("text", "")),
        "link": _page_link(message.get("blocks", [])),
    }


def _page_link(blocks: list[Any]) -> str:
    for block in blocks:
        for element in block.get("elements", []) if isinstance(block, dict) else []:
            if isinstance(element, dict) and element.get("url"):
                return str(element["url"])
    return ""
