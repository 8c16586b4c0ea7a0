"""A webhook out, signed and POSTed (docs/webhooks-out.md): Standard Webhooks' headers `webhook-id`,
`webhook-timestamp` and `webhook-signature` (`v1,<base64>`, the `standardwebhooks` library's
`Webhook.sign` with the subscription's `whsec_` secret) over the exact JSON bytes sent.

No redirect is followed (a 3xx is the receiver's answer, retried like any other non-2xx), and an
answer's body is never read past a few bytes nor logged. No answer within TIMEOUT_SECONDS is a
DeliveryFailedError, like a refused connection.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import datetime
from typing import Any, NoReturn

from standardwebhooks.webhooks import Webhook

from waitgate.errors import DeliveryFailedError

TIMEOUT_SECONDS = 10.0
USER_AGENT = "waitgate-webhooks/1"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class HttpWebhookPoster:
    def __init__(self, timeout_seconds: float = TIMEOUT_SECONDS) -> None:
        self._timeout = timeout_seconds
        self._opener = urllib.request.build_opener(_NoRedirects())

    def post(self, url: str, secret: str, webhook_id: str, body: dict[str, Any], sent_at: datetime) -> int:
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


def _failed(error: Exception) -> NoReturn:
    reason = getattr(error, "reason", error)
    raise DeliveryFailedError(f"no answer: {type(reason).__name__}") from error
