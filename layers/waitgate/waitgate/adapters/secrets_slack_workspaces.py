"""Each tenant's Slack app in Secrets Manager: the secret `<SLACK_SECRET_PREFIX><tenant>` holds
`{"botToken": "xoxb-…", "signingSecret": "…", "teamId": "T…", "channel": "C… (optional)"}`
(docs/channels.md). Read on first use and kept for five minutes per Lambda instance; a tenant without
a secret has no Slack. Values are never logged (the dataclass hides them from repr)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code
from waitgate.channels.sent_messages import SlackWorkspace
from waitgate.errors import TemporarilyUnavailableError

KEEP_SECONDS = 300.0
MAX_KEPT = 256  # tenants kept per instance: a request URL naming made-up tenants cannot grow it further


class SecretsSlackWorkspaces:
    def __init__(self, client: Callable[[], Any], prefix: str) -> None:
        self._client = client
        self._prefix = prefix
        self._kept: dict[str, tuple[float, SlackWorkspace | None]] = {}

    def workspace(self, tenant_id: str) -> SlackWorkspace | None:
        if not self._prefix:
            return None
        kept = self._kept.get(tenant_id)
        if kept is not None and time.monotonic() - kept[0] < KEEP_SECONDS:
            return kept[1]
        workspace = self._load(tenant_id)
        if len(self._kept) >= MAX_KEPT and tenant_id not in self._kept:
            del self._kept[next(iter(self._kept))]  # the longest kept
        self._kept[tenant_id] = (time.monotonic(), workspace)
        return workspace

    def _load(self, tenant_id: str) -> SlackWorkspace | None:
        try:
            answer = self._client().get_secret_value(SecretId=f"{self._prefix}{tenant_id}")
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ResourceNotFoundException":
                return None
            raise TemporarilyUnavailableError("The Slack settings could not be read; retry.") from error
        try:
            value = json.loads(answer.get("SecretString") or "{}")
        except ValueError:
            return None
        if not isinstance(value, dict):
            return None
        return SlackWorkspace(
            tenant_id=tenant_id,
            bot_token=str(value.get("botToken") or ""),
            signing_secret=str(value.get("signingSecret") or ""),
            team_id=str(value.get("teamId") or ""),
            channel=str(value.get("channel") or ""),
        )
