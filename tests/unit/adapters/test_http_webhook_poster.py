"""The signed POST of a webhook out, to a real receiver on 127.0.0.1: what the standardwebhooks
library verifies, a status for any answer (a redirect not followed), DeliveryFailedError for none, and
on AWS (loopback not allowed) no connection at all to a host that resolves to an internal address."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from tests.support.webhook_receiver import WebhookReceiver
from waitgate.adapters.http_webhook_poster import HttpWebhookPoster
from waitgate.errors import DeliveryFailedError
from waitgate.subscriptions.targets import new_secret

SECRET = new_secret(bytes(range(32)))
BODY = {
    "type": "interrupt.resolved",
    "timestamp": "2026-12-03T08:00:00.000Z",
    "data": {"runId": "r", "ü": "✓"},
}


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    receiving = WebhookReceiver()
    yield receiving
    receiving.stop()


def test_the_post_is_signed_as_the_library_verifies_and_its_status_is_answered(
    receiver: WebhookReceiver,
) -> None:
    poster = HttpWebhookPoster(loopback_allowed=True)
    assert poster.post(receiver.url, SECRET, "msg_abc", BODY, datetime.now(UTC)) == 204
    receiver.answer = 307
    assert poster.post(receiver.url, SECRET, "msg_abc", BODY, datetime.now(UTC)) == 307
    first, second = receiver.received
    assert first.verified(SECRET) == BODY and second.verified(SECRET) == BODY
    assert first.webhook_id == second.webhook_id == "msg_abc"
    assert first.headers["content-type"] == "application/json"


def test_no_answer_is_a_delivery_failure(receiver: WebhookReceiver) -> None:
    url = receiver.url
    receiver.stop()
    with pytest.raises(DeliveryFailedError, match="no answer: ConnectionRefusedError"):
        HttpWebhookPoster(loopback_allowed=True).post(url, SECRET, "msg_abc", BODY, datetime.now(UTC))


def test_on_aws_a_host_resolving_to_an_internal_address_is_never_connected_to(
    receiver: WebhookReceiver,
) -> None:
    poster = HttpWebhookPoster(loopback_allowed=False)
    for url in (receiver.url, receiver.url.replace("127.0.0.1", "localhost")):
        with pytest.raises(DeliveryFailedError, match="internal address"):
            poster.post(url, SECRET, "msg_abc", BODY, datetime.now(UTC))
    assert receiver.received == []
