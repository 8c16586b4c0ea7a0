"""Webhooks out on strict moto (docs/webhooks-out.md), through the real handlers: a subscription made
with `POST /subscriptions`; a run's events on the table's stream, filtered by the template's own
FilterCriteria, fanned out by dispatch_stream onto the SQS queue; deliverWebhook POSTs each to a real
HTTP receiver on 127.0.0.1, signed (verified with the standardwebhooks library); retries, parking in
the delivery log and a redrive, each attempt as Lambda's SQS poller hands it (ApproximateReceiveCount).
Hostile bodies never reach a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from local.template.event_patterns import matches
from local.template.sam_template import load_template
from tests.integration.conftest import REGION, create_table_from_template
from tests.integration.durability_faults import TableStream
from tests.integration.kind_steps import KindSteps
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler, sample_event
from tests.support.hypothesis_profiles import examples
from tests.support.webhook_receiver import WebhookReceiver

CUSTOM = {"kind": "custom", "key": "label-run", "data": {"customKind": "acme.label"}}
LIFECYCLE = ["interrupt.requested", "interrupt.resolved", "interrupt.expired", "interrupt.cancelled"]
QUEUE = "waitgate-test-webhooks"


@pytest.fixture
def world(
    environment: None, dynamodb: Any, table_name: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Any]]:
    directory = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-test")
    sqs = boto3.client("sqs", region_name=REGION)
    queue_url = sqs.create_queue(QueueName=QUEUE)["QueueUrl"]
    for name, value in {
        "DIRECTORY_TABLE_NAME": directory,
        "WEBHOOK_QUEUE_NAME": QUEUE,
        "SUBSCRIPTION_LOOPBACK_HTTP": "on",
        "WEBHOOK_ATTEMPTS": "3",
        "WEBHOOK_RETRY_BASE_SECONDS": "30",
    }.items():
        monkeypatch.setenv(name, value)
    from waitgate.wiring import composition

    composition.forget_instances()
    receiver = WebhookReceiver()
    yield {
        "steps": KindSteps(WorkflowHarness()),
        "stream": TableStream(table_name),
        "sqs": sqs,
        "queue_url": queue_url,
        "receiver": receiver,
        "manage": Handler("manage_subscriptions"),
    }
    receiver.stop()


def api(world: dict[str, Any], method: str, path: str, body: Any = None, **claims: Any) -> tuple[int, Any]:
    path, _, query = path.partition("?")
    event = sample_event("resolve_by_run")
    event["rawQueryString"] = query
    if query:
        event["queryStringParameters"] = dict(part.split("=", 1) for part in query.split("&"))
    event["routeKey"] = f"{method} {path}"
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["requestContext"]["http"]["method"] = method
    event["pathParameters"] = {"subscriptionId": path.split("/")[2]} if path.count("/") > 1 else {}
    jwt = event["requestContext"]["authorizer"]["jwt"]["claims"]
    jwt.update({"sub": "ops", "scope": "subscriptions:manage", **claims})
    jwt.pop("tenant", None) if "tenant" not in claims else None
    event["body"] = body if isinstance(body, str) else (None if body is None else json.dumps(body))
    answer = world["manage"](event)
    text = answer.get("body") or ""
    return answer["statusCode"], json.loads(text) if text else None


def dispatched(world: dict[str, Any]) -> None:
    """The stream's new records, as the template's FilterCriteria let them through, to dispatch_stream."""
    properties = load_template()["Resources"]["StreamDispatchFunction"]["Properties"]
    patterns = [
        json.loads(f["Pattern"])
        for f in properties["Events"]["Changes"]["Properties"]["FilterCriteria"]["Filters"]
    ]
    records = [r for r in world["stream"].next_batch()["Records"] if any(matches(p, r) for p in patterns)]
    assert Handler("dispatch_stream")({"Records": records}) == {"batchItemFailures": []}


def queued(world: dict[str, Any]) -> list[dict[str, Any]]:
    answer = world["sqs"].receive_message(
        QueueUrl=world["queue_url"], MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"]
    )
    return list(answer.get("Messages", []))


def sqs_event(world: dict[str, Any], messages: list[dict[str, Any]], receive_count: int | None = None) -> Any:
    """The Lambda event of these messages, as the SQS poller builds it."""
    arn = f"arn:aws:sqs:{REGION}:123456789012:{QUEUE}"
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": {
                    **m["Attributes"],
                    **({"ApproximateReceiveCount": str(receive_count)} if receive_count else {}),
                },
                "messageAttributes": {},
                "md5OfBody": m["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": arn,
                "awsRegion": REGION,
            }
            for m in messages
        ]
    }


def test_a_run_s_lifecycle_reaches_the_subscriber_signed_once_per_webhook_id(world: dict[str, Any]) -> None:
    receiver: WebhookReceiver = world["receiver"]
    status, made = api(world, "POST", "/subscriptions", {"url": receiver.url, "events": LIFECYCLE})
    assert status == 201 and made["secret"].startswith("whsec_")
    # When a run suspends and is resolved, and the stream's records go through the reader
    run, _ = world["steps"].suspend(CUSTOM)
    assert world["steps"].resolve(run.run_id, "Interrupt", {"label": "ok"})[0] == 200
    dispatched(world)
    messages = queued(world)
    # Then one message per event, names only (no payload, no secret)
    assert [json.loads(m["Body"])["type"] for m in messages] == ["interrupt.requested", "interrupt.resolved"]
    assert all(
        set(json.loads(m["Body"])) == {"tenantId", "subscriptionId", "runId", "seq", "type", "time"}
        for m in messages
    )
    # When the deliverer gets them (and, as a duplicate, the first one again)
    deliverer = Handler("deliver_webhook")
    assert deliverer(sqs_event(world, messages)) == {"batchItemFailures": []}
    assert deliverer(sqs_event(world, messages[:1])) == {"batchItemFailures": []}
    # Then the receiver got each once, verified by the library, the event as the run's log has it
    got = receiver.of_run(run.run_id)
    payloads = [r.verified(made["secret"]) for r in got]
    logged = world["steps"].events(run.run_id, "updates")
    assert [p["data"] for p in payloads] == [{"runId": run.run_id, **e} for e in logged]
    assert len({r.webhook_id for r in got}) == 2
    status, log = api(world, "GET", f"/subscriptions/{made['id']}/deliveries")
    assert [(d["type"], d["status"], d["attempts"]) for d in log["deliveries"]] == [
        ("interrupt.resolved", "delivered", 1),
        ("interrupt.requested", "delivered", 1),
    ]
    # And a list shows the subscription without its secret
    assert api(world, "GET", "/subscriptions")[1] == {
        "subscriptions": [{k: v for k, v in made.items() if k != "secret"}]
    }


def test_a_refusing_receiver_is_retried_with_backoff_then_parked_then_redriven(world: dict[str, Any]) -> None:
    receiver: WebhookReceiver = world["receiver"]
    _, made = api(world, "POST", "/subscriptions", {"url": receiver.url, "events": ["interrupt.requested"]})
    run, _ = world["steps"].suspend(CUSTOM)
    dispatched(world)
    (message,) = queued(world)
    receiver.answer = 500
    deliverer = Handler("deliver_webhook")
    # When the receiver answers 500 to attempts 1 and 2 (SQS counting more receives: Lambda was
    # throttled, say), Then each is the batch's failure: attempts are the log's, not SQS's count
    for receive in (7, 8):
        failures = deliverer(sqs_event(world, [message], receive))["batchItemFailures"]
        assert failures == [{"itemIdentifier": message["MessageId"]}]
    _, log = api(world, "GET", f"/subscriptions/{made['id']}/deliveries?status=retrying")
    (entry,) = log["deliveries"]
    assert (entry["attempts"], entry["lastStatusCode"], entry["lastError"]) == (2, 500, "HTTP 500")
    # When the third (the last) fails too, Then it is parked, and the message is done with
    assert deliverer(sqs_event(world, [message], 9)) == {"batchItemFailures": []}
    _, parked = api(world, "GET", f"/subscriptions/{made['id']}/deliveries?status=parked")
    assert [d["webhookId"] for d in parked["deliveries"]] == [entry["webhookId"]]
    # When the receiver is back and the subscription is redriven
    receiver.answer = 200
    assert api(world, "POST", f"/subscriptions/{made['id']}/redrive") == (
        200,
        {"subscriptionId": made["id"], "redriven": 1},
    )
    (again,) = queued(world)
    assert deliverer(sqs_event(world, [again])) == {"batchItemFailures": []}
    # Then it arrived with the webhook-id of every earlier attempt, and the log says delivered
    assert {r.webhook_id for r in receiver.of_run(run.run_id)} == {entry["webhookId"]}
    assert [r.answered for r in receiver.of_run(run.run_id)] == [500, 500, 500, 200]
    _, log = api(world, "GET", f"/subscriptions/{made['id']}/deliveries")
    assert [(d["status"], d["attempts"]) for d in log["deliveries"]] == [("delivered", 1)]


def test_a_removed_subscription_gets_nothing_more_and_another_tenant_sees_none(world: dict[str, Any]) -> None:
    receiver: WebhookReceiver = world["receiver"]
    _, made = api(world, "POST", "/subscriptions", {"url": receiver.url, "events": ["interrupt.requested"]})
    assert api(world, "GET", "/subscriptions", tenant="acme")[1] == {"subscriptions": []}
    assert api(world, "DELETE", f"/subscriptions/{made['id']}", tenant="acme")[0] == 404
    world["steps"].suspend(CUSTOM)
    dispatched(world)
    messages = queued(world)
    assert api(world, "DELETE", f"/subscriptions/{made['id']}") == (204, None)
    assert Handler("deliver_webhook")(sqs_event(world, messages)) == {"batchItemFailures": []}
    assert receiver.received == []
    assert api(world, "DELETE", f"/subscriptions/{made['id']}")[1]["code"] == "not_found"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
BODIES = st.one_of(
    JSON.map(json.dumps),
    st.fixed_dictionaries(
        {
            "url": st.one_of(
                st.text(max_size=60), st.sampled_from(["https://a.example/h", "http://127.0.0.1:1/h"])
            ),
            "events": st.lists(st.sampled_from([*LIFECYCLE, "x", ""]), max_size=5),
        },
        optional={"secret": st.text(max_size=60)},
    ).map(json.dumps),
    st.text(max_size=40),
)


@settings(
    max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(body=BODIES)
def test_a_hostile_body_is_a_subscription_or_a_problem_with_its_code_never_a_500(
    world: dict[str, Any], body: str
) -> None:
    status, answer = api(world, "POST", "/subscriptions", body)
    if status == 201:
        assert answer["url"].startswith(("https://", "http://127.0.0.1:")) and answer["events"]
        api(world, "DELETE", f"/subscriptions/{answer['id']}")
        return
    assert status in {400, 409, 413, 415}, (status, answer)
    assert answer["code"] in {
        "validation_error",
        "subscription_url_refused",
        "unknown_event_type",
        "too_many_subscriptions",
    }


def test_a_redrive_marks_pending_only_what_is_still_parked(world: dict[str, Any], table_name: str) -> None:
    # Given two entries of the log: one parked, one the deliverer delivered since its redrive queued it
    from waitgate.adapters.dynamodb_delivery_log import DynamoDbDeliveryLog
    from waitgate.subscriptions.records import DeliveryEntry, QueuedDelivery

    log = DynamoDbDeliveryLog(boto3.client("dynamodb", region_name=REGION), table_name)
    parked, delivered = (
        DeliveryEntry(
            QueuedDelivery("default", "sub_1", "run-1", seq, "interrupt.resolved", "t"),
            status,
            3,
            "2026-12-03T08:00:00.000Z",
        )
        for seq, status in ((1, "parked"), (2, "delivered"))
    )
    log.record(parked)
    log.record(delivered)
    # When the redrive marks both
    log.requeued(parked, "2026-12-03T09:00:00.000Z")
    log.requeued(delivered, "2026-12-03T09:00:00.000Z")
    # Then only the parked one is pending again, with no attempts; the delivered one stays delivered
    assert (log.entry(parked.delivery).status, log.entry(parked.delivery).attempts) == ("pending", 0)  # type: ignore[union-attr]
    assert log.entry(delivered.delivery) == delivered
