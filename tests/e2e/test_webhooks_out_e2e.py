"""Webhooks out on the local stack (docs/webhooks-out.md): a subscriber made with `waitgate
subscriptions add` receives an interrupt's lifecycle as Standard Webhooks, each event once per
webhook-id, its signature verified by the `standardwebhooks` library; a receiver that is down gets
retries with backoff, then the delivery is parked, and a redrive delivers it with its webhook-id.

The local stack retries quickly (WebhookAttempts 4, WebhookRetryBaseSeconds 1: 1 s, 2 s, 4 s). The
figures these tests print (attempts, time from the receiver's return to the delivery) are measured,
never asserted against the clock."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_durability_e2e import DEADLINE_APPROVAL
from tests.e2e.test_kinds_e2e import SampleRun, token_for, wait_for
from tests.support.webhook_receiver import WebhookReceiver

pytestmark = pytest.mark.e2e
CUSTOM = {"kind": "custom", "key": "label-run", "data": {"customKind": "acme.label"}}
LIFECYCLE = "interrupt.requested,interrupt.resolved,interrupt.expired,interrupt.cancelled"
MANAGE = "subscriptions:manage"


def cli(stack: LocalStackHandle, *arguments: str) -> str:
    done = run_local(["subscriptions", *arguments], stack.environment)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    receiving = WebhookReceiver()
    yield receiving
    receiving.stop()


@pytest.fixture
def subscribed(local_stack: LocalStackHandle, receiver: WebhookReceiver) -> Iterator[dict[str, Any]]:
    """A subscription of the tenant `default` to every lifecycle event, made by the CLI."""
    made = json.loads(cli(local_stack, "add", "--url", receiver.url, "--events", LIFECYCLE, "--json"))
    yield made
    cli(local_stack, "remove", "--id", made["id"])


def deliveries(stack: LocalStackHandle, subscription_id: str, status: str | None = None) -> list[Any]:
    arguments = ["deliveries", "--id", subscription_id, "--json"]
    listed: list[Any] = json.loads(cli(stack, *arguments, *(["--status", status] if status else [])))[
        "deliveries"
    ]
    return listed


def test_each_lifecycle_event_arrives_once_per_webhook_id_signed_as_standard_webhooks(
    local_stack: LocalStackHandle, receiver: WebhookReceiver, subscribed: dict[str, Any]
) -> None:
    # Given a subscription whose secret the CLI printed once, and that a list never shows
    assert subscribed["secret"].startswith("whsec_")
    listed = json.loads(cli(local_stack, "list", "--json"))["subscriptions"]
    assert [s for s in listed if s["id"] == subscribed["id"]] == [
        {k: v for k, v in subscribed.items() if k != "secret"}
    ]
    # When a run is suspended and then resolved
    run = SampleRun(local_stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    assert run.resolve("Interrupt", {"label": "ok"})[0] == 200
    got = wait_for(lambda: (lambda r: r if len(r) >= 2 else None)(receiver.accepted_of_run(run.run_id)))
    # Then it received interrupt.requested then interrupt.resolved, each verified by the library
    payloads = [received.verified(subscribed["secret"]) for received in got]
    assert [p["type"] for p in payloads] == ["interrupt.requested", "interrupt.resolved"]
    requested = next(e for e in run.events("updates") if e["type"] == "interrupt.requested")
    assert payloads[0]["data"] == {"runId": run.run_id, **requested}
    # And each webhook-id once; and the delivery log says delivered, with that webhook-id
    assert len({r.webhook_id for r in got}) == len(got) == len(receiver.of_run(run.run_id))
    logged = {
        d["webhookId"]: d for d in deliveries(local_stack, subscribed["id"]) if d["runId"] == run.run_id
    }
    assert {i: (d["status"], d["attempts"]) for i, d in logged.items()} == {
        r.webhook_id: ("delivered", 1) for r in got
    }


def received_types(receiver: WebhookReceiver, run: SampleRun, secret: str, last: str) -> list[str]:
    """The types the receiver got for the run, once `last` is among them."""

    def arrived() -> list[str] | None:
        types = [r.verified(secret)["type"] for r in receiver.accepted_of_run(run.run_id)]
        return types if last in types else None

    found: list[str] = wait_for(arrived)
    return found


def test_a_stopped_run_ends_with_interrupt_cancelled_and_a_deadline_with_interrupt_expired(
    local_stack: LocalStackHandle, receiver: WebhookReceiver, subscribed: dict[str, Any]
) -> None:
    # Given a run stopped while it waits
    run = SampleRun(local_stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    local_stack.sfn.stop_execution(executionArn=run.execution_arn, error="Stopped", cause="e2e")
    # Then its end is interrupt.cancelled
    cancelled = received_types(receiver, run, subscribed["secret"], "interrupt.cancelled")
    assert cancelled == ["interrupt.requested", "interrupt.cancelled"]
    # And an approval nobody answers by its deadline ends with interrupt.expired
    late = SampleRun(local_stack, "interrupt", {"interrupt": DEADLINE_APPROVAL})
    expired = received_types(receiver, late, subscribed["secret"], "interrupt.expired")
    assert expired == ["interrupt.requested", "interrupt.expired"]


def test_a_receiver_down_for_a_while_gets_retries_then_parked_then_redriven(
    local_stack: LocalStackHandle, receiver: WebhookReceiver, subscribed: dict[str, Any]
) -> None:
    # Given a receiver that answers 503 for its first two attempts
    receiver.answer = 503
    run = SampleRun(local_stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    refused = wait_for(lambda: (lambda r: r if len(r) >= 2 else None)(receiver.of_run(run.run_id)))
    back = time.monotonic()
    receiver.answer = 204
    # Then the next attempt is delivered, with the same webhook-id as the refused ones
    (delivered,) = wait_for(lambda: receiver.accepted_of_run(run.run_id) or None)
    assert {r.webhook_id for r in refused} == {delivered.webhook_id}
    attempts = len(receiver.of_run(run.run_id))
    print(
        f"\nretried: {attempts} attempts, delivered {delivered.at - back:.2f} s after the receiver came back"
    )
    # When the receiver is not listening at all, for longer than every attempt
    receiver.stop()
    assert run.resolve("Interrupt", {"label": "late"})[0] == 200

    def parked() -> dict[str, Any] | None:
        found = [d for d in deliveries(local_stack, subscribed["id"], "parked") if d["runId"] == run.run_id]
        return found[0] if found else None

    entry = wait_for(parked, timeout=120)
    # Then the resolution is parked after its 4 attempts, its last error said
    assert (entry["type"], entry["attempts"], entry["lastError"]) == (
        "interrupt.resolved",
        4,
        "no answer: ConnectionRefusedError",
    )
    # When the receiver is back and the subscription is redriven
    receiver.start()
    redriven_at = time.monotonic()
    assert cli(local_stack, "redrive", "--id", subscribed["id"]).strip() == "redriven 1"
    # Then it arrives once, with its webhook-id, verified; and the log says delivered
    resolved = wait_for(
        lambda: (
            [r for r in receiver.accepted_of_run(run.run_id) if r.webhook_id == entry["webhookId"]] or None
        )
    )
    assert [r.verified(subscribed["secret"])["type"] for r in resolved] == ["interrupt.resolved"]
    print(f"redriven: delivered {resolved[0].at - redriven_at:.2f} s after the redrive")
    logged = [d for d in deliveries(local_stack, subscribed["id"]) if d["webhookId"] == entry["webhookId"]]
    assert [(d["status"], d["attempts"]) for d in logged] == [("delivered", 1)]


def test_refusals_are_problem_json_with_their_codes(local_stack: LocalStackHandle) -> None:
    token = token_for(local_stack, "ops", MANAGE)

    def post(body: Any, with_token: str = token) -> tuple[int, str, str]:
        answer = local_stack.http.post("/subscriptions", body, token=with_token)
        problem = answer.json()
        assert answer.headers["content-type"].startswith("application/problem+json"), answer.headers
        return answer.status, problem["code"], problem.get("path", "")

    events = ["interrupt.resolved"]
    assert post({"url": "http://example.com/hooks", "events": events}) == (
        400,
        "subscription_url_refused",
        "url",
    )
    assert post({"url": "https://169.254.169.254/", "events": events})[1] == "subscription_url_refused"
    assert post({"url": "https://a.example/", "events": ["run.done"]}) == (
        400,
        "unknown_event_type",
        "events[0]",
    )
    assert post({"url": "https://a.example/", "events": events, "extra": 1})[:2] == (400, "validation_error")
    reader = token_for(local_stack, "reader", "runs:read")
    assert post({"url": "https://a.example/", "events": events}, reader)[:2] == (403, "forbidden")
    # And another tenant's subscription is not found
    mine = local_stack.http.post(
        "/subscriptions", {"url": "https://a.example/h", "events": events}, token=token
    )
    assert mine.status == 201, mine.body
    other = token_for(local_stack, "ops", MANAGE, tenant="acme")
    gone = local_stack.http.request("DELETE", f"/subscriptions/{mine.json()['id']}", token=other)
    assert (gone.status, gone.json()["code"]) == (404, "not_found")
    assert (
        local_stack.http.request("DELETE", f"/subscriptions/{mine.json()['id']}", token=token).status == 204
    )
