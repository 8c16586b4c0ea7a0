"""A webhook out, signed and POSTed (docs/webhooks-out.md): Standard Webhooks' headers `webhook-id`,
`webhook-timestamp` and `webhook-signature` (`v1,<base64>`, the `standardwebhooks` library's
`Webhook.sign` with the subscription's `whsec_` secret) over the exact JSON bytes sent.

No redirect is followed (a 3xx is the receiver's answer, retried like any other non-2xx), and an
answer's body is never read past a few bytes nor logged. No answer within TIMEOUT_SECONDS is a
DeliveryFailedError, like a refused connection. Unless loopback URLs are allowed (the local stack),
a host whose DNS name resolves to an internal address (loopback, private, link-local: what the
subscription's URL check cannot see) is not connected to: a DeliveryFailedError too.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime
from typing import Any, NoReturn

from standardwebhooks.webhooks import Webhook

from waitgate.errors import DeliveryFailedError
from waitgate.subscriptions.targets import is_internal_address

TIMEOUT_SECONDS = 10.0
USER_AGENT = "waitgate-webhooks/1"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class HttpWebhookPoster:
    def __init__(self, *, loopback_allowed: bool, timeout_seconds: float = TIMEOUT_SECONDS) -> None:
        self._loopback_allowed = loopback_allowed
        self._timeout = timeout_seconds
        self._opener = urllib.request.build_opener(_NoRedirects())

    def post(self, url: str, secret: str, webhook_id: str, body: dict[str, Any], sent_at: datetime) -> int:
        if not self._loopback_allowed:
            self._refuse_internal(url)
        text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
        signature = Webhook(secret).sign(webhook_id, sent_at, text)
        request = urllib.request.Request(  # noqa: S310 (the URL's scheme was checked at subscription)
            url,
            data=text.encode("utf-8"),
            method="POST",
            headers={
                "content-type": "application/json",
                "user-agent": USER_AGENT,
                "webhook-id": webhook_id,
                "webhook-timestamp": str(int(sent_at.timestamp())),
                "webhook-signature": signature,
            },
        )
        try:
            with self._opener.open(request, timeout=self._timeout) as answer:
                answer.read(1024)
                return int(answer.status)
        except urllib.error.HTTPError as error:
            error.close()
            return int(error.code)
        except (urllib.error.URLError, OSError, ValueError) as error:
            _failed(error)

    def _refuse_internal(self, url: str) -> None:
        host = urllib.parse.urlsplit(url).hostname or ""
        try:
            found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError) as error:
            _failed(error)
        if any(is_internal_address(str(entry[4][0])) for entry in found):
            raise DeliveryFailedError("refused: the host resolves to an internal address")


def _failed(error: Exception) -> NoReturn:
    reason = getattr(error, "reason", error)
    raise DeliveryFailedError(f"no answer: {type(reason).__name__}") from error
