"""`waitgate subscriptions add|list|remove|deliveries|redrive`: webhooks out (docs/webhooks-out.md),
through the HTTP API's `/subscriptions` routes (scope subscriptions:manage).

Without `--api` it talks to the running local stack with a JWT of its issuer (for `--tenant`); with
`--api` to a deployed stack, with the bearer token in `--token` or $WAITGATE_TOKEN. A refusal is said
in one line: its problem+json's code and detail.
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from local.cli.command_actions import action_parsers

SCOPE = "subscriptions:manage"
TOKEN_VARIABLE = "WAITGATE_TOKEN"  # noqa: S105 (the variable's name, not a token)
TIMEOUT_SECONDS = 30
DESCRIPTION = """\
Webhooks out: a URL of yours receives an interrupt's lifecycle (interrupt.requested, .resolved,
.expired, .cancelled) as signed Standard Webhooks, retried with backoff and parked after the last
attempt; each subscription keeps a delivery log. Without --api, the running local stack's (where an
http://127.0.0.1:<port> URL is allowed); with --api, a deployed stack's (https only)."""
ACTIONS = {
    "add": (
        "subscribe a URL to event types (prints the secret once)",
        "waitgate subscriptions add --url https://agents.example.com/hooks "
        "--events interrupt.resolved,interrupt.expired",
    ),
    "list": ("list the tenant's subscriptions (never their secrets)", "waitgate subscriptions list"),
    "remove": ("remove a subscription", "waitgate subscriptions remove --id sub_01JE..."),
    "deliveries": (
        "show a subscription's delivery log, newest first",
        "waitgate subscriptions deliveries --id sub_01JE... --status parked",
    ),
    "redrive": (
        "queue a subscription's parked deliveries again",
        "waitgate subscriptions redrive --id sub_01JE...",
    ),
}


class SubscriptionRefusedError(Exception):
    """The API refused (its code and detail), or could not be reached: said in one line."""


def add_subscriptions_parser(commands: Any) -> None:
    for action, parser in action_parsers(
        commands,
        "subscriptions",
        "manage webhooks out: subscriptions, their delivery logs, redrive",
        DESCRIPTION,
        ACTIONS,
        example="add",
    ):
        if action == "add":
            parser.add_argument("--url", required=True, help="where the webhooks go")
            parser.add_argument(
                "--events", required=True, help="comma-separated event types, e.g. interrupt.resolved"
            )
            parser.add_argument("--secret", help="a whsec_ secret of yours (default: one is made)")
        if action in {"remove", "deliveries", "redrive"}:
            parser.add_argument("--id", required=True, help="the subscription's id (sub_...)")
        if action == "deliveries":
            parser.add_argument(
                "--status", choices=("pending", "retrying", "delivered", "parked"), help="only this status"
            )
        parser.add_argument("--json", action="store_true", help="print the API's JSON answer")
        parser.add_argument("--api", help="a deployed stack's API URL (default: the running local stack)")
        parser.add_argument("--token", help=f"the bearer token for --api (default: ${TOKEN_VARIABLE})")
        parser.add_argument("--tenant", help="local stack only: the tenant (default: the tenant `default`)")


def run_subscriptions(arguments: argparse.Namespace) -> int:
    action = arguments.subscriptions_action
    api = ApiCaller.of(arguments)
    if action == "add":
        body: dict[str, Any] = {"url": arguments.url, "events": _events(arguments.events)}
        if arguments.secret:
            body["secret"] = arguments.secret
        answer = api.call("POST", "/subscriptions", body)
        _show(
            arguments,
            answer,
            f"{answer['id']} {answer['url']} {','.join(answer['events'])}\nsecret {answer['secret']}",
        )
    elif action == "list":
        answer = api.call("GET", "/subscriptions")
        lines = [f"{s['id']} {s['url']} {','.join(s['events'])}" for s in answer["subscriptions"]]
        _show(arguments, answer, "\n".join(lines) or "(no subscriptions)")
    elif action == "remove":
        api.call("DELETE", f"/subscriptions/{_quoted(arguments.id)}")
        _show(arguments, {"removed": arguments.id}, f"removed {arguments.id}")
    elif action == "deliveries":
        query = f"?status={arguments.status}" if arguments.status else ""
        answer = api.call("GET", f"/subscriptions/{_quoted(arguments.id)}/deliveries{query}")
        _show(arguments, answer, "\n".join(map(_delivery_line, answer["deliveries"])) or "(no deliveries)")
    else:
        answer = api.call("POST", f"/subscriptions/{_quoted(arguments.id)}/redrive")
        _show(arguments, answer, f"redriven {answer['redriven']}")
    return 0


def _events(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _quoted(subscription_id: str) -> str:
    return urllib.parse.quote(subscription_id, safe="")


def _delivery_line(delivery: dict[str, Any]) -> str:
    last = delivery.get("lastStatusCode") or delivery.get("lastError") or ""
    return (
        f"{delivery['webhookId']} {delivery['type']} run={delivery['runId']} seq={delivery['seq']} "
        f"{delivery['status']} attempts={delivery['attempts']} {last}".rstrip()
    )


def _show(arguments: argparse.Namespace, answer: Any, text: str) -> None:
    print(json.dumps(answer) if arguments.json else text)


class ApiCaller:
    def __init__(self, api_url: str, token: str) -> None:
        self._api, self._token = api_url.rstrip("/"), token

    @classmethod
    def of(cls, arguments: argparse.Namespace) -> ApiCaller:
        if arguments.api:
            token = arguments.token or os.environ.get(TOKEN_VARIABLE, "")
            if not token:
                raise SubscriptionRefusedError(f"--api needs a bearer token (--token or ${TOKEN_VARIABLE})")
            return cls(str(arguments.api), str(token))
        from local.standins.jwt_issuer import LocalIssuer, caller_claims
        from local.state.running_instance import running_stack_description
        from local.state.state_dir import StateDir

        state_dir = StateDir.from_environment()
        description = running_stack_description(state_dir)
        claims = caller_claims(
            sub="waitgate-cli",
            scope=SCOPE,
            tenant=arguments.tenant,
            tenant_claim=description.get("jwt", {}).get("tenantClaim", "tenant"),
            groups=[],
            roles=[],
        )
        token = LocalIssuer.of_running_stack(state_dir).mint(claims, ttl_seconds=300)
        return cls(str(description["apiUrl"]), token)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(  # noqa: S310 (the stack's own API URL)
            self._api + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self._token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:  # noqa: S310
                text = answer.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            raise SubscriptionRefusedError(_refusal(error)) from None
        except (urllib.error.URLError, OSError) as error:
            raise SubscriptionRefusedError(f"{self._api} could not be reached ({error})") from None
        return json.loads(text) if text else None


def _refusal(error: urllib.error.HTTPError) -> str:
    try:
        problem = json.loads(error.read().decode("utf-8"))
        return f"{error.code} {problem.get('code')}: {problem.get('detail')}"
    except ValueError:
        return f"{error.code} {error.reason}"
