"""The plan of one webhook out: a webhook-id that names the event and the subscription (the same on
every attempt, another for any other pair), retries with backoff, parking after the last attempt,
and the Standard Webhooks body."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from waitgate.run.records import RunEvent
from waitgate.subscriptions.delivery_plan import (
    MAX_DELAY_SECONDS,
    Park,
    Retry,
    accepted,
    after_failure,
    retry_delay,
    webhook_body,
)
from waitgate.subscriptions.records import QueuedDelivery

DELIVERY = QueuedDelivery("default", "sub_1", "run-1", 3, "interrupt.resolved", "2026-12-03T08:00:00.000Z")


def test_the_backoff_doubles_from_its_base_and_parks_after_the_last_attempt() -> None:
    plan = [after_failure(attempt, 4, 30) for attempt in range(1, 6)]
    assert plan == [Retry(30), Retry(60), Retry(120), Park(), Park()]
    assert after_failure(1, 1, 30) == Park()


@given(st.integers(min_value=-5, max_value=10_000), st.floats(min_value=0.001, max_value=1e9))
def test_a_delay_is_whole_seconds_from_1_to_sqs_visibility_limit(attempt: int, base: float) -> None:
    delay = retry_delay(attempt, base)
    assert isinstance(delay, int) and 1 <= delay <= MAX_DELAY_SECONDS
    assert retry_delay(attempt + 1, base) >= delay


def test_only_a_2xx_is_a_receipt() -> None:
    assert [code for code in (199, 200, 204, 299, 301, 400, 410, 429, 500) if accepted(code)] == [
        200,
        204,
        299,
    ]


def test_the_webhook_id_is_the_same_for_the_same_event_and_subscription_and_another_otherwise() -> None:
    again = QueuedDelivery("default", "sub_1", "run-1", 3, "interrupt.resolved", "2026-12-03T08:00:00.000Z")
    assert again.webhook_id == DELIVERY.webhook_id and DELIVERY.webhook_id.startswith("msg_")
    others = {
        QueuedDelivery("acme", "sub_1", "run-1", 3, "interrupt.resolved", "t").webhook_id,
        QueuedDelivery("default", "sub_2", "run-1", 3, "interrupt.resolved", "t").webhook_id,
        QueuedDelivery("default", "sub_1", "run-2", 3, "interrupt.resolved", "t").webhook_id,
        QueuedDelivery("default", "sub_1", "run-1", 4, "interrupt.resolved", "t").webhook_id,
    }
    assert len(others) == 4 and DELIVERY.webhook_id not in others


@given(st.text(max_size=30), st.text(max_size=30), st.integers(min_value=0, max_value=10**12))
def test_a_queued_delivery_reads_back_what_it_wrote(run_id: str, tenant: str, seq: int) -> None:
    delivery = QueuedDelivery(tenant, "sub_x", run_id, seq, "interrupt.requested", "t")
    assert QueuedDelivery.from_document(delivery.to_document()) == delivery


def test_the_body_is_type_timestamp_and_the_event_as_the_log_lists_it() -> None:
    event = RunEvent(
        3, "interrupt.resolved", "2026-12-03T08:00:00.000Z", {"resumeValue": {"ok": True}}, "Approve"
    )
    assert webhook_body(DELIVERY, event) == {
        "type": "interrupt.resolved",
        "timestamp": "2026-12-03T08:00:00.000Z",
        "data": {
            "runId": "run-1",
            "seq": 3,
            "type": "interrupt.resolved",
            "time": "2026-12-03T08:00:00.000Z",
            "nodeId": "Approve",
            "payload": {"resumeValue": {"ok": True}},
        },
    }
